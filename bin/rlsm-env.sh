# shellcheck shell=bash
# Most variables set here are for the scripts that source this file:
# shellcheck disable=SC2034
# Common environment of the bin/ launchers and the bench/ scripts; sourced, never run. It fixes the
# repository root, the data directory and ports (from RLSM_* environment variables, see
# docs/operations.md), the JVM flags HBase needs on JDK 17, and the class paths taken from Maven,
# so every script starts HBase, the tools and the benchmarks the same way.

if [ -z "${BASH_VERSION:-}" ]; then
  echo "rlsm-env.sh must be sourced by bash" >&2
  # shellcheck disable=SC2317 # exit is reached when a shell runs this file instead of sourcing it
  return 1 2>/dev/null || exit 1
fi

RLSM_REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RLSM_MODULE="$RLSM_REPO/hbase-rlsm"
RLSM_TOOLS_MODULE="$RLSM_REPO/hbase-rlsm-tools"
# The native build of hbase-rlsm: libulfsjni.so and the ulfs command-line tools.
RLSM_NATIVE_DIR="$RLSM_MODULE/target/native"

rlsm_die() {
  echo "$(basename "$0"): error: $*" >&2
  exit 1
}

rlsm_info() {
  echo "$(basename "$0"): $*"
}

# The same list as the jdk17.flags property of the parent pom. Without
# the --add-opens HBase fails on JDK 17 inside HFileSystem/ReflectionUtils; the rest silences
# reflective-access fallbacks. TestStandaloneLaunchers checks that the two lists agree.
RLSM_JDK17_FLAGS=(
  --add-opens=java.base/java.lang=ALL-UNNAMED
  --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
  --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED
  --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
  --add-opens=java.base/java.util=ALL-UNNAMED
  --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
  -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
)

# ----- settings from the environment -----

rlsm_check_port() {
  local name="$1" value="$2"
  if ! [[ "$value" =~ ^[0-9]+$ ]] || [ "$value" -lt 1 ] || [ "$value" -gt 65535 ]; then
    rlsm_die "$name must be a TCP port number (1-65535), got '$value'"
  fi
}

# A web UI port: a TCP port, or -1 for no web UI (HBase's convention).
rlsm_check_info_port() {
  [ "$2" = "-1" ] || rlsm_check_port "$1" "$2"
}

rlsm_check_uint() {
  local name="$1" value="$2"
  [[ "$value" =~ ^[0-9]+$ ]] || rlsm_die "$name must be a whole number, got '$value'"
}

RLSM_HOME_DATA="${RLSM_HOME_DATA:-$RLSM_REPO/run}"
# Absolute, because it becomes a file:// URI in hbase-site.xml and the JVM's working directory
# is not the caller's.
case "$RLSM_HOME_DATA" in
  /*) ;;
  *) RLSM_HOME_DATA="$PWD/$RLSM_HOME_DATA" ;;
esac
RLSM_HOME_DATA="${RLSM_HOME_DATA%/}"
# It becomes part of a file:// URI and of -D options; keep it to characters that need no escaping.
[[ "$RLSM_HOME_DATA" =~ ^[A-Za-z0-9_./+-]+$ ]] \
  || rlsm_die "RLSM_HOME_DATA may only contain letters, digits and _ . / + -: '$RLSM_HOME_DATA'"
RLSM_ZK_PORT="${RLSM_ZK_PORT:-2181}"
RLSM_MASTER_PORT="${RLSM_MASTER_PORT:-16000}"
RLSM_RS_PORT="${RLSM_RS_PORT:-16020}"
RLSM_MASTER_INFO_PORT="${RLSM_MASTER_INFO_PORT:-16010}"
RLSM_RS_INFO_PORT="${RLSM_RS_INFO_PORT:-16030}"
RLSM_HEAP="${RLSM_HEAP:-1g}"
RLSM_TOOL_HEAP="${RLSM_TOOL_HEAP:-1g}"
RLSM_START_TIMEOUT="${RLSM_START_TIMEOUT:-180}"
RLSM_STOP_TIMEOUT="${RLSM_STOP_TIMEOUT:-60}"
RLSM_JAVA_OPTS="${RLSM_JAVA_OPTS:-}"
RLSM_FS="${RLSM_FS:-local}"
# The directory with hbase-site.xml and log4j.properties, first on every classpath. A benchmark
# points it at a generated copy of conf/ (bench/scripts/ycsb-compare.sh) to change server
# settings without touching the checked-in files.
RLSM_CONF_DIR="${RLSM_CONF_DIR:-$RLSM_REPO/conf}"
[ -f "$RLSM_CONF_DIR/hbase-site.xml" ] \
  || rlsm_die "RLSM_CONF_DIR=$RLSM_CONF_DIR has no hbase-site.xml"
RLSM_ULFS_BYTES="${RLSM_ULFS_BYTES:-8589934592}"
case "$RLSM_FS" in
  local | ulfs) ;;
  *) rlsm_die "RLSM_FS must be 'local' or 'ulfs', got '$RLSM_FS'" ;;
esac
rlsm_check_uint RLSM_ULFS_BYTES "$RLSM_ULFS_BYTES"
rlsm_check_port RLSM_ZK_PORT "$RLSM_ZK_PORT"
rlsm_check_port RLSM_MASTER_PORT "$RLSM_MASTER_PORT"
rlsm_check_port RLSM_RS_PORT "$RLSM_RS_PORT"
rlsm_check_info_port RLSM_MASTER_INFO_PORT "$RLSM_MASTER_INFO_PORT"
rlsm_check_info_port RLSM_RS_INFO_PORT "$RLSM_RS_INFO_PORT"
rlsm_check_uint RLSM_START_TIMEOUT "$RLSM_START_TIMEOUT"
rlsm_check_uint RLSM_STOP_TIMEOUT "$RLSM_STOP_TIMEOUT"
# Every port in use (web UIs may be off, -1) must differ from the others.
if [ "$(printf '%s\n' "$RLSM_ZK_PORT" "$RLSM_MASTER_PORT" "$RLSM_RS_PORT" "$RLSM_MASTER_INFO_PORT" \
  "$RLSM_RS_INFO_PORT" | grep -v '^-1$' | sort | uniq -d)" != "" ]; then
  rlsm_die "RLSM_ZK_PORT, RLSM_MASTER_PORT, RLSM_RS_PORT, RLSM_MASTER_INFO_PORT and" \
    "RLSM_RS_INFO_PORT must differ ($RLSM_ZK_PORT, $RLSM_MASTER_PORT, $RLSM_RS_PORT," \
    "$RLSM_MASTER_INFO_PORT, $RLSM_RS_INFO_PORT)"
fi

RLSM_LOG_DIR="$RLSM_HOME_DATA/logs"
RLSM_PID_FILE="$RLSM_HOME_DATA/hbase-master.pid"
RLSM_SERVER_LOG="$RLSM_LOG_DIR/hbase-master.log"
RLSM_SERVER_OUT="$RLSM_LOG_DIR/hbase-master.out"
# Which file system the data directory was first started with (local or ulfs).
RLSM_FS_FILE="$RLSM_HOME_DATA/rootdir-fs"

if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  RLSM_JAVA="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
  RLSM_JAVA="$(command -v java)"
else
  rlsm_die "no java found: install JDK 17 (bin/install-deps) or set JAVA_HOME"
fi
RLSM_JAVA_MAJOR="$("$RLSM_JAVA" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java\.specification\.version = //p')"
if ! [[ "${RLSM_JAVA_MAJOR:-0}" =~ ^[0-9]+$ ]] || [ "$RLSM_JAVA_MAJOR" -lt 17 ]; then
  rlsm_die "$RLSM_JAVA is Java '${RLSM_JAVA_MAJOR:-unknown}'; JDK 17 or newer is required"
fi

# System properties that hbase-site.xml and log4j.properties expand (${rlsm.*}).
RLSM_SYSPROPS=(
  "-Drlsm.data.dir=$RLSM_HOME_DATA"
  "-Drlsm.zk.port=$RLSM_ZK_PORT"
  "-Drlsm.master.port=$RLSM_MASTER_PORT"
  "-Drlsm.regionserver.port=$RLSM_RS_PORT"
  "-Drlsm.master.info.port=$RLSM_MASTER_INFO_PORT"
  "-Drlsm.regionserver.info.port=$RLSM_RS_INFO_PORT"
)
if [ "$RLSM_FS" = ulfs ]; then
  # rlsm.ulfs.cache.trace is empty (no trace) unless RLSM_JAVA_OPTS, which comes later on the
  # command line, sets it: Hadoop drops the empty value in hbase-site.xml, so it must come from here.
  RLSM_SYSPROPS+=("-Drlsm.rootdir=ulfs:///hbase" "-Drlsm.ulfs.bytes=$RLSM_ULFS_BYTES"
    "-Drlsm.ulfs.cache.trace=")
fi

# ----- classpath -----

# Writes the runtime class path of the Maven module in directory $1 to file $2, once: it is
# resolved again only when a pom is newer than the file or a listed jar has gone (e.g. a cleaned
# local repository).
rlsm_resolve_classpath() {
  local module="$1" cpfile="$2"
  local stale=0
  if [ ! -s "$cpfile" ] || [ "$RLSM_REPO/pom.xml" -nt "$cpfile" ] \
    || [ "$module/pom.xml" -nt "$cpfile" ]; then
    stale=1
  else
    local -a jars
    local jar
    IFS=: read -r -a jars < "$cpfile" || true # the file has no final newline
    for jar in "${jars[@]}"; do
      [ -e "$jar" ] || { stale=1; break; }
    done
  fi
  [ "$stale" -eq 1 ] || return 0
  command -v mvn >/dev/null 2>&1 || rlsm_die "mvn not found: run bin/install-deps"
  echo "$(basename "$0"): resolving the class path of ${module#"$RLSM_REPO"/} with Maven (once)" >&2
  local tmp="$cpfile.tmp.$$"
  mkdir -p "$(dirname "$cpfile")"
  # Maven's output is shown only when it fails (-q still prints terminal escape codes).
  if ! (cd "$module" && mvn -q -B -ntp dependency:build-classpath \
    -DincludeScope=runtime "-Dmdep.outputFile=$tmp" > "$tmp.log" 2>&1); then
    cat "$tmp.log" >&2
    rm -f "$tmp" "$tmp.log"
    rlsm_die "mvn dependency:build-classpath failed in $module (output above)"
  fi
  rm -f "$tmp.log"
  # A rename is atomic, so launchers running at the same time never read half a file.
  mv -f "$tmp" "$cpfile"
}

# Builds CP = RLSM_CONF_DIR : engine classes : runtime dependencies (cached in hbase-rlsm/target/):
# the server's class path. It holds the engine jar's contents only, never the client tools.
rlsm_classpath() {
  local classes="$RLSM_MODULE/target/classes"
  local cpfile="$RLSM_MODULE/target/cp-runtime.txt"
  [ -f "$classes/org/apache/hadoop/hbase/regionserver/RlsmStoreEngine.class" ] \
    || rlsm_die "hbase-rlsm is not built ($classes has no engine): run" \
      "'mvn -B -ntp -q package -DskipTests' in $RLSM_REPO, or bin/quickstart"
  rlsm_resolve_classpath "$RLSM_MODULE" "$cpfile"
  CP="$RLSM_CONF_DIR:$classes:$(cat "$cpfile")"
}

# The client tools' class path (create-table, hbase-status, the quick start, the shell): the
# server's plus hbase-rlsm-tools' classes. That module has no runtime dependencies of its own.
rlsm_tools_classpath() {
  rlsm_classpath
  local classes="$RLSM_TOOLS_MODULE/target/classes"
  [ -f "$classes/org/apache/hadoop/hbase/rlsm/standalone/ServerStatus.class" ] \
    || rlsm_die "hbase-rlsm-tools is not built ($classes has no tools): run" \
      "'mvn -B -ntp -q package -DskipTests' in $RLSM_REPO, or bin/quickstart"
  CP="$CP:$classes"
}

# Sets CP to the class path of the Maven module in directory $1 of the repository (bench/ycsb,
# bench/jmh, bench/cluster, hbase-rlsm-tools): its classes (and its test classes for scope test),
# then its dependencies of scope $2 (runtime, the default, or test), the modules of this
# repository among them as their target/classes directories. RLSM_CONF_DIR is not on it; callers
# that want hbase-site.xml put it first. The module and the modules it depends on are built first
# (mvn -pl MODULE -am test-compile, which includes the native library) when the list is missing
# or older than a pom or a source of the engine, native/ or the module. Scripts started together
# take turns, so only the first one builds.
rlsm_module_classpath() {
  local module="$1" scope="${2:-runtime}"
  local dir="$RLSM_REPO/$module"
  [ -f "$dir/pom.xml" ] || rlsm_die "no Maven module '$module' in $RLSM_REPO"
  case "$scope" in
    runtime | test) ;;
    *) rlsm_die "rlsm_module_classpath: scope must be runtime or test, not '$scope'" ;;
  esac
  local cpfile="$dir/target/rlsm-$scope.classpath"
  mkdir -p "$dir/target" "$RLSM_MODULE/target"
  # One lock for every build: all of them compile hbase-rlsm.
  exec 8> "$RLSM_MODULE/target/.build.lock"
  flock 8
  if [ ! -s "$cpfile" ] || [ ! -d "$dir/target/classes" ] \
    || [ -n "$(find "$RLSM_REPO/pom.xml" "$RLSM_MODULE/pom.xml" "$RLSM_MODULE/src" \
      "$RLSM_REPO/native" "$dir/pom.xml" "$dir/src" -newer "$cpfile" -print -quit)" ]; then
    command -v mvn >/dev/null 2>&1 || rlsm_die "mvn not found: run bin/install-deps"
    echo "$(basename "$0"): building $module (mvn -q -pl $module -am test-compile)" >&2
    local log="$cpfile.log"
    rm -f "$cpfile.tmp"
    # With -am the class path goal runs in every module built; the requested one comes last.
    if ! (cd "$RLSM_REPO" && mvn -q -B -ntp -pl "$module" -am -DskipTests test-compile \
      dependency:build-classpath "-DincludeScope=$scope" "-Dmdep.outputFile=$cpfile.tmp") \
      > "$log" 2>&1; then
      cat "$log" >&2
      rm -f "$cpfile.tmp"
      rlsm_die "building $module failed (Maven's output above, also in $log)"
    fi
    mv -f "$cpfile.tmp" "$cpfile"
  fi
  exec 8>&-
  # A jar may have gone since the list was written (a cleaned local repository).
  local -a jars
  local jar
  IFS=: read -r -a jars < "$cpfile" || true # the file has no final newline
  for jar in "${jars[@]}"; do
    [ -e "$jar" ] || rlsm_die "$jar (from $cpfile) is missing: delete that file to rebuild"
  done
  CP="$dir/target/classes"
  if [ "$scope" = test ]; then
    CP="$CP:$dir/target/test-classes"
  fi
  CP="$CP:$(cat "$cpfile")"
}

# Adds the shell module's dependencies (JRuby) to CP; needs rlsm_tools_classpath first. They stay
# off the server's class path.
rlsm_shell_classpath() {
  local cpfile="$RLSM_REPO/shell/target/cp-shell.txt"
  rlsm_resolve_classpath "$RLSM_REPO/shell" "$cpfile"
  CP="$CP:$(cat "$cpfile")"
}

# The java command line of a client tool (small heap, logs to tools.log) in RLSM_TOOL_CMD, so
# callers can put timeout(1) in front of it. Needs CP (rlsm_classpath or rlsm_tools_classpath).
rlsm_tool_cmd() {
  # RLSM_JAVA_OPTS is split on blanks on purpose: it is a list of JVM options.
  local -a extra
  read -r -a extra <<< "$RLSM_JAVA_OPTS"
  RLSM_TOOL_CMD=("$RLSM_JAVA" "-Xmx$RLSM_TOOL_HEAP" "${RLSM_JDK17_FLAGS[@]}" "${RLSM_SYSPROPS[@]}"
    -Drlsm.log.file=tools.log "${extra[@]}" -cp "$CP")
}

# Runs a Java main class of ours (or HBase's) as a client tool.
rlsm_java_tool() {
  rlsm_tool_cmd
  "${RLSM_TOOL_CMD[@]}" "$@"
}

# ----- processes and ports -----

# Prints the pid of the standalone server of this data directory if it is running. A pid file
# whose process is gone, or now belongs to another program, is stale and removed.
rlsm_server_pid() {
  [ -f "$RLSM_PID_FILE" ] || return 0
  local pid
  pid="$(tr -dc '0-9' < "$RLSM_PID_FILE")"
  if rlsm_is_alive "$pid" && [ -r "/proc/$pid/cmdline" ] \
    && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q 'org.apache.hadoop.hbase.master.HMaster'; then
    echo "$pid"
  else
    echo "$(basename "$0"): removing stale pid file $RLSM_PID_FILE" >&2
    rm -f "$RLSM_PID_FILE"
  fi
}

# True if some process listens on TCP port $1 (any address, IPv4 or IPv6). Reads /proc directly
# so it needs neither ss nor netstat; state 0A is LISTEN.
rlsm_port_in_use() {
  local hex
  hex="$(printf '%04X' "$1")"
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null \
    | awk -v p="$hex" 'NR > 1 && $4 == "0A" { split($2, a, ":"); if (a[2] == p) f = 1 }
        END { exit f ? 0 : 1 }'
}

# True while process $1 exists. A zombie counts as gone: it has exited, and if its parent (or a
# container's init) never reaps it, kill -0 would otherwise report it alive forever.
# Serializes hbase-start and hbase-stop of one data directory (two starts at once would both pass
# the pid and port checks, and the loser would overwrite the winner's pid file). Holds the lock on
# file descriptor 9 until the script exits; the server itself must not inherit it (9>&-).
# With a number of seconds, waits that long for the other launcher instead of failing at once.
rlsm_lock() {
  local wait="${1:-0}"
  mkdir -p "$RLSM_HOME_DATA"
  exec 9> "$RLSM_HOME_DATA/.launcher.lock"
  flock -n 9 && return 0
  [ "$wait" -gt 0 ] || rlsm_die "another bin/hbase-start or bin/hbase-stop is running for" \
    "$RLSM_HOME_DATA; wait for it to finish"
  echo "$(basename "$0"): waiting up to $wait s for another bin/hbase-start or hbase-stop" >&2
  flock -w "$wait" 9 || rlsm_die "another bin/hbase-start or bin/hbase-stop for" \
    "$RLSM_HOME_DATA did not finish within $wait s"
}

rlsm_is_alive() {
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
  local state
  state="$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null || true)"
  [ "$state" != "Z" ] && [ "$state" != "X" ]
}

# rlsm_poll SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds (0) or SECONDS have
# passed (1, after one last try). A bounded wait for a condition another process brings about.
rlsm_poll() {
  local secs="$1" i
  shift
  for ((i = 0; i < secs * 5; i++)); do
    "$@" && return 0
    sleep 0.2
  done
  "$@"
}

# rlsm_cluster_bench HEAP FILTER CLASS ARGS...: runs the mini-cluster benchmark CLASS (simple name,
# package org.apache.hadoop.hbase.rlsm.bench.cluster in bench/cluster) with heap HEAP, the test
# log4j settings and the native library, passing only stderr lines that match the extended regex
# FILTER (progress) through; docs/bench-data/ exists afterwards for its CSV. RLSM_JAVA_OPTS adds
# JVM options (a JFR recording, say).
rlsm_cluster_bench() {
  local heap="$1" filter="$2" class="$3"
  shift 3
  rlsm_module_classpath bench/cluster
  mkdir -p "$RLSM_REPO/docs/bench-data"
  # RLSM_JAVA_OPTS is split on blanks on purpose: it is a list of JVM options.
  local -a extra
  read -r -a extra <<< "$RLSM_JAVA_OPTS"
  "$RLSM_JAVA" "-Xmx$heap" "${RLSM_JDK17_FLAGS[@]}" "${extra[@]}" \
    "-Dlog4j.configuration=file:$RLSM_MODULE/src/test/resources/log4j.properties" \
    "-Djava.library.path=$RLSM_NATIVE_DIR" -cp "$CP" \
    "org.apache.hadoop.hbase.rlsm.bench.cluster.$class" "$@" \
    2> >(grep --line-buffered -E "$filter" >&2)
}
