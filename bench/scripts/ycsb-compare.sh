#!/usr/bin/env bash
# YCSB workloads A-F side by side on HBase's default engine, the stripe engine, RLSM and RLSM on
# ulfs, in one run on this machine (docs/benchmarks.md, section "YCSB A–F side by side"):
#   bench/scripts/ycsb-compare.sh [--records N] [--operations N] [--scan-operations N]
#       [--threads N] [--engines LIST] [--field-length B] [--flush-mb MB] [--heap SIZE]
#       [--compaction-mbps MB] [--max-phase-seconds S] [--settle-seconds S] [--name NAME]
#       [--work DIR] [--docs DIR] [--no-plots] [--report-only]
# For each engine it starts a fresh standalone server (bin/hbase-start with its own data dir and
# a generated hbase-site.xml: the same heap, flush size and compaction throughput for all),
# creates usertable with that engine (bin/create-table), runs YCSB in its documented order
# (load, A, B, C, F, D; drop, reload, E) through bench/ycsb/ycsb, snapshots the server after each
# phase (JMX, /proc/<pid>/io, store files) and stops it, also on failure or Ctrl-C. Then
# org.apache.hadoop.hbase.rlsm.ycsb.compare.CompareReport writes DOCS/bench-data/ycsb-NAME*.csv and
# .json and the summary table; gnuplot draws DOCS/ycsb-NAME-*.png (DOCS: --docs, default docs).
# --report-only redoes only that last step from the raw results of an earlier run (WORK/NAME).
set -euo pipefail
cd "$(dirname "$0")/../.."
REPO="$PWD"

RECORDS=20000
OPERATIONS=5000
SCAN_OPERATIONS=""
THREADS=4
ENGINES="default,stripe,rlsm,rlsm-ulfs"
FIELD_LENGTH=100
FLUSH_MB=4
HEAP=2g
COMPACTION_MBPS=100
MAX_PHASE_SECONDS=90
SETTLE_SECONDS=30
NAME=""
WORK="$REPO/run/ycsb-compare"
DOCS="$REPO/docs"
PLOTS=1
REPORT_ONLY=0

usage() {
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
while [ $# -gt 0 ]; do
  case "$1" in
    --records) RECORDS="$2"; shift 2 ;;
    --operations) OPERATIONS="$2"; shift 2 ;;
    --scan-operations) SCAN_OPERATIONS="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --engines) ENGINES="$2"; shift 2 ;;
    --field-length) FIELD_LENGTH="$2"; shift 2 ;;
    --flush-mb) FLUSH_MB="$2"; shift 2 ;;
    --heap) HEAP="$2"; shift 2 ;;
    --compaction-mbps) COMPACTION_MBPS="$2"; shift 2 ;;
    --max-phase-seconds) MAX_PHASE_SECONDS="$2"; shift 2 ;;
    --settle-seconds) SETTLE_SECONDS="$2"; shift 2 ;;
    --name) NAME="$2"; shift 2 ;;
    --work) WORK="$2"; shift 2 ;;
    --docs) DOCS="$2"; shift 2 ;;
    --no-plots) PLOTS=0; shift ;;
    --report-only) REPORT_ONLY=1; shift ;;
    -h | --help) usage ;;
    *) echo "ycsb-compare: unknown argument '$1'" >&2; usage ;;
  esac
done
for v in RECORDS OPERATIONS THREADS FIELD_LENGTH FLUSH_MB COMPACTION_MBPS MAX_PHASE_SECONDS \
  SETTLE_SECONDS; do
  if ! [[ "${!v}" =~ ^[0-9]+$ ]] || [ "${!v}" -eq 0 ]; then
    echo "ycsb-compare: --${v,,} must be a positive whole number, got '${!v}'" >&2
    exit 2
  fi
done
# Workload E scans up to 100 rows per operation: a tenth of the operations takes about as long.
SCAN_OPERATIONS="${SCAN_OPERATIONS:-$((OPERATIONS / 10))}"
NAME="${NAME:-${RECORDS}r-${OPERATIONS}o}"
[[ "$NAME" =~ ^[A-Za-z0-9_.-]+$ ]] || { echo "ycsb-compare: bad --name '$NAME'" >&2; exit 2; }

# Ports of the benchmark's servers, away from bin/hbase-start's defaults so a developer's own
# server (and its data) is never touched; one engine runs at a time, so all use the same ports.
export RLSM_ZK_PORT="${RLSM_ZK_PORT:-2481}"
export RLSM_MASTER_PORT="${RLSM_MASTER_PORT:-16400}"
export RLSM_RS_PORT="${RLSM_RS_PORT:-16420}"
export RLSM_RS_INFO_PORT="${RLSM_RS_INFO_PORT:-16430}"
export RLSM_MASTER_INFO_PORT="${RLSM_MASTER_INFO_PORT:--1}" # only the RegionServer's /jmx is read
INFO_PORT="$RLSM_RS_INFO_PORT"
export RLSM_HEAP="$HEAP"
TABLE=usertable
FAMILY=family

log() {
  echo "[ycsb-compare $(date -u +%H:%M:%S)] $*"
}
die() {
  echo "ycsb-compare: error: $*" >&2
  exit 1
}

RESULTS="$WORK/$NAME"

# The report from the raw results: CompareReport writes the CSV/JSON and prints the summary,
# gnuplot draws the PNGs.
report() {
  mkdir -p "$DOCS/bench-data"
  "$RLSM_JAVA" -cp "$YCSB_CP" -Dlog4j.configuration="file:$REPO/conf/log4j.properties" -Drlsm.data.dir="$WORK" \
    org.apache.hadoop.hbase.rlsm.ycsb.compare.CompareReport "$RESULTS" \
    "$DOCS/bench-data/ycsb-$NAME" | tee "$RESULTS/summary.md"
  if [ "$PLOTS" -eq 1 ]; then
    gnuplot -e "dir='$RESULTS'; out='$DOCS/ycsb-$NAME'" \
      bench/scripts/ycsb-compare.gp
    log "plots: $DOCS/ycsb-$NAME-*.png"
  fi
}

log "checking system packages (bin/install-deps --bench)"
bin/install-deps --bench
log "building hbase-rlsm, its client tools and the YCSB binding (when not built yet)"
mkdir -p "$WORK"
# shellcheck source=bin/rlsm-env.sh
source bin/rlsm-env.sh
# bin/hbase-start and bin/create-table run on these classes.
rlsm_module_classpath hbase-rlsm-tools
rlsm_module_classpath bench/ycsb
YCSB_CP="$CP"

if [ "$REPORT_ONLY" -eq 1 ]; then
  [ -f "$RESULTS/params.properties" ] || die "no results of a run named $NAME in $WORK"
  report
  exit 0
fi

# ulfs takes part when its JNI library was built and a device image can be made and mounted here.
ulfs_usable() {
  local native="$RLSM_NATIVE_DIR" img="$WORK/ulfs-probe.img"
  [ -f "$native/libulfsjni.so" ] && [ -x "$native/ulfs-mkfs" ] || return 1
  rm -f "$img"
  "$native/ulfs-mkfs" "$img" 67108864 > /dev/null 2>&1 \
    && "$native/ulfs-stat" "$img" > /dev/null 2>&1
  local rc=$?
  rm -f "$img"
  return $rc
}

IFS=',' read -r -a ENGINE_LIST <<< "$ENGINES"
RUN_ENGINES=()
for e in "${ENGINE_LIST[@]}"; do
  case "$e" in
    default | stripe | rlsm) RUN_ENGINES+=("$e") ;;
    rlsm-ulfs)
      if ulfs_usable; then
        RUN_ENGINES+=("$e")
      else
        log "skipping rlsm-ulfs: libulfsjni.so is not built or no ulfs image can be mounted here"
      fi
      ;;
    *) die "unknown engine '$e' (default, stripe, rlsm, rlsm-ulfs)" ;;
  esac
done
[ ${#RUN_ENGINES[@]} -gt 0 ] || die "no engine to run"

rm -rf "$RESULTS"
mkdir -p "$RESULTS"
cat > "$RESULTS/params.properties" <<EOF
records=$RECORDS
operations=$OPERATIONS
scan.operations=$SCAN_OPERATIONS
threads=$THREADS
engines=${RUN_ENGINES[*]}
fieldcount=10
fieldlength=$FIELD_LENGTH
flush.mb=$FLUSH_MB
heap=$HEAP
compaction.mbps=$COMPACTION_MBPS
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
host.cores=$(nproc)
commit=$(git rev-parse --short HEAD)
EOF

# ----- one server per engine -----

CUR_DATA=""
# Stops the current engine's server; bin/hbase-stop waits for the JVM and kills it if needed.
stop_server() {
  if [ -n "$CUR_DATA" ]; then
    RLSM_HOME_DATA="$CUR_DATA" bin/hbase-stop || true
    CUR_DATA=""
  fi
}
on_exit() {
  local rc=$?
  trap - EXIT INT TERM
  stop_server
  [ "$rc" -eq 0 ] || echo "ycsb-compare: FAILED (exit $rc); results so far in $RESULTS" >&2
  exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# conf/hbase-site.xml plus the benchmark's settings, the same for every engine.
write_conf() {
  local dir="$1"
  mkdir -p "$dir"
  cp conf/log4j.properties "$dir/"
  printf '<?xml version="1.0"?>\n<configuration/>\n' > "$dir/core-site.xml"
  # CompactionLog reads each compaction's start and end in ms from HStore's TRACE line.
  echo "log4j.logger.org.apache.hadoop.hbase.regionserver.HStore=TRACE" >> "$dir/log4j.properties"
  sed '/<\/configuration>/d' conf/hbase-site.xml > "$dir/hbase-site.xml"
  cat >> "$dir/hbase-site.xml" <<EOF
  <!-- ===== Generated by bench/scripts/ycsb-compare.sh: the same for every engine ===== -->
  <property>
    <name>hbase.hregion.memstore.flush.size</name>
    <value>$((FLUSH_MB * 1048576))</value>
  </property>
  <property>
    <name>hbase.hstore.compaction.throughput.lower.bound</name>
    <value>$((COMPACTION_MBPS * 1048576))</value>
  </property>
  <property>
    <name>hbase.hstore.compaction.throughput.higher.bound</name>
    <value>$((COMPACTION_MBPS * 1048576))</value>
  </property>
  <!-- Archived store files are kept for the whole run: write amplification counts them. -->
  <property><name>hbase.master.hfilecleaner.ttl</name><value>604800000</value></property>
  <!-- One region per table for every engine (RLSM tables never split): the engines compare
       store against store, as in the RLSM paper's setting. -->
  <property>
    <name>hbase.regionserver.region.split.policy</name>
    <value>org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy</value>
  </property>
  <!-- The RegionServer web server only for /jmx, on loopback; metrics refreshed every second. -->
  <property><name>hbase.regionserver.info.port</name><value>$INFO_PORT</value></property>
  <property><name>hbase.regionserver.info.bindAddress</name><value>127.0.0.1</value></property>
  <property><name>hbase.regionserver.metrics.period</name><value>1000</value></property>
</configuration>
EOF
}

jmx() { # query -> JSON on stdout
  curl -sf --max-time 20 "http://127.0.0.1:$INFO_PORT/jmx?qry=$1"
}

server_metric() { # name -> value of the RegionServer's Server bean
  jmx 'Hadoop:service=HBase,name=RegionServer,sub=Server' | jq -r ".beans[0].$1 // empty"
}

# Everything the report needs about the server after a phase, in $RESULTS/ENGINE/PHASE.*
snapshot() {
  local engine="$1" phase="$2" pid="$3"
  local out="$RESULTS/$engine/$phase"
  date -u +%s%3N > "$out.time"
  cut -d' ' -f1-3 /proc/loadavg > "$out.loadavg"
  # Just after start the Server bean can hold only its tags: its metrics appear with the metrics
  # system's first snapshot, a few seconds later.
  local tries=0
  until [ -n "$(server_metric storeFileSize)" ] || [ "$tries" -ge 30 ]; do
    sleep 1
    tries=$((tries + 1))
  done
  jmx 'Hadoop:service=HBase,name=RegionServer,sub=Server' > "$out.server.json"
  jmx 'Hadoop:service=hbase-rlsm,name=*' > "$out.rlsm.json"
  cat "/proc/$pid/io" > "$out.io"
  if [ "$engine" != rlsm-ulfs ]; then
    list_local_files "$CUR_DATA/hbase" > "$out.files"
  fi
}

# Store files of the table, live and archived, as "SIZE<TAB>REGION/FAMILY/FILE" (archiving moves a
# file, so a file has the same key in both places and is counted once).
list_local_files() {
  local root="$1"
  {
    local d
    # The archive exists only once a file was archived.
    for d in "$root/data/default/$TABLE" "$root/archive/data/default/$TABLE"; do
      if [ -d "$d" ]; then
        find "$d" -type f -path "*/$FAMILY/*" -printf '%s\t%P\n'
      fi
    done
  } | sort -u
}

# The same listing for ulfs, read through Hadoop's FsShell once the server has unmounted it. A
# fresh shell sources bin/rlsm-env.sh for that data directory on ulfs (the system properties name
# the device image). FsShell needs a core-site.xml on the class path (write_conf puts an empty one
# there) and the device image's settings from hbase-site.xml.
# A failed listing leaves the output empty (the caller reports it).
list_ulfs_files() {
  {
    # shellcheck disable=SC2016 # $@ is expanded by the inner shell, on purpose
    RLSM_HOME_DATA="$1" RLSM_FS=ulfs bash -c \
      'source bin/rlsm-env.sh && rlsm_classpath && rlsm_java_tool "$@"' list_ulfs_files \
      org.apache.hadoop.fs.FsShell -conf "$RLSM_CONF_DIR/hbase-site.xml" \
      -ls -R "ulfs:///hbase/data/default/$TABLE" "ulfs:///hbase/archive/data/default/$TABLE" \
      2> "$RESULTS/rlsm-ulfs/fsshell.err" || true
  } | awk -v fam="/$FAMILY/" '$1 ~ /^-/ && index($8, fam) {
        p = $8; sub(/.*\/data\/default\/[^\/]+\//, "", p); print $5 "\t" p }' | sort -u
}

# Waits (at most SETTLE_SECONDS) until the server has no compaction queued or running. The flush
# queue is not asked: it also holds the delayed entries of the periodic flusher, so its length
# need not reach 0 on an idle server.
settle() {
  local i q
  for ((i = 0; i < SETTLE_SECONDS; i += 2)); do
    q="$(jmx 'Hadoop:service=HBase,name=RegionServer,sub=Server' \
      | jq -r '.beans[0].compactionQueueLength')"
    # Not before 4 s: a compaction requested by the last flush may not be queued yet.
    [ "$q" = 0 ] && [ "$i" -ge 4 ] && return 0
    sleep 2
  done
  log "  queues not empty after $SETTLE_SECONDS s (--settle-seconds); measuring anyway"
}

# YCSB through the project's binding; stdout (the measurements) is kept, the status lines that
# YCSB prints every 10 s go to the terminal as progress.
ycsb() {
  local engine="$1" phase="$2" cmd="$3" workload="$4" ops="$5"
  local out="$RESULTS/$engine/$phase.ycsb.txt"
  log "$engine: $phase ($cmd workload$workload, $ops operations, $THREADS threads)"
  if ! bench/ycsb/ycsb "$cmd" -P "bench/ycsb/workloads/workload$workload" -s \
    -threads "$THREADS" -p table="$TABLE" -p columnfamily="$FAMILY" \
    -p recordcount="$RECORDS" -p operationcount="$ops" -p fieldlength="$FIELD_LENGTH" \
    -p measurementtype=hdrhistogram -p hdrhistogram.percentiles=50,95,99 \
    -p status.interval=10 -p maxexecutiontime="$MAX_PHASE_SECONDS" \
    > "$out" 2> >(grep --line-buffered -E 'sec:|Exception|ERROR' \
      | sed -u "s/^/    [$engine $phase] /" >&2); then
    die "YCSB $cmd of workload$workload failed on $engine (output: $out)"
  fi
  grep -E '^\[OVERALL\], Throughput' "$out" | sed "s/^/    [$engine $phase] /"
}

run_engine() {
  local engine="$1"
  local base="$WORK/servers/$engine" create_engine="${1%-ulfs}"
  rm -rf "$base"
  mkdir -p "$RESULTS/$engine"
  write_conf "$base/conf"
  export RLSM_CONF_DIR="$base/conf"
  export RLSM_FS=local
  [ "$engine" = rlsm-ulfs ] && RLSM_FS=ulfs
  export RLSM_HOME_DATA="$base/data"
  log "$engine: starting a fresh server (data in $RLSM_HOME_DATA, heap $HEAP)"
  CUR_DATA="$RLSM_HOME_DATA"
  bin/hbase-start > "$RESULTS/$engine/start.txt"
  local pid
  pid="$(cat "$RLSM_HOME_DATA/hbase-master.pid")"
  bin/create-table "$TABLE" "$FAMILY" --engine "$create_engine" > /dev/null
  snapshot "$engine" start "$pid"
  ycsb "$engine" load load a "$RECORDS"
  snapshot "$engine" load "$pid"
  local w
  for w in a b c f d; do
    ycsb "$engine" "$w" run "$w" "$OPERATIONS"
    snapshot "$engine" "$w" "$pid"
  done
  log "$engine: dropping the table and loading it again for workload E"
  bin/create-table "$TABLE" "$FAMILY" --engine "$create_engine" --replace > /dev/null
  ycsb "$engine" reload load e "$RECORDS"
  snapshot "$engine" reload "$pid"
  ycsb "$engine" e run e "$SCAN_OPERATIONS"
  snapshot "$engine" e "$pid"
  log "$engine: waiting for flushes and compactions to finish (at most $SETTLE_SECONDS s)"
  settle
  snapshot "$engine" final "$pid"
  stop_server
  # After the stop: the flush of the last memstore at shutdown is committed too.
  if [ "$engine" = rlsm-ulfs ]; then
    list_ulfs_files "$RLSM_HOME_DATA" > "$RESULTS/$engine/stopped.files"
    if [ ! -s "$RESULTS/$engine/stopped.files" ]; then
      # No listing means no write amplification for ulfs (the report shows n/a), never zero.
      log "  could not list the store files in the ulfs image:" \
        "$(tail -n 3 "$RESULTS/$engine/fsshell.err")"
      rm -f "$RESULTS/$engine/stopped.files"
    fi
  else
    list_local_files "$RLSM_HOME_DATA/hbase" > "$RESULTS/$engine/stopped.files"
  fi
  # Allocated bytes of the whole data directory (the ulfs image is sparse).
  du -s --block-size=1 "$RLSM_HOME_DATA" > "$RESULTS/$engine/stopped.du"
  mkdir -p "$RESULTS/$engine/logs"
  cp "$RLSM_HOME_DATA"/logs/hbase-master.log* "$RESULTS/$engine/logs/"
  log "$engine: done"
}

START=$SECONDS
log "engines: ${RUN_ENGINES[*]}; $RECORDS records of 10 x $FIELD_LENGTH B, $OPERATIONS" \
  "operations per workload ($SCAN_OPERATIONS for E), $THREADS threads; results in $RESULTS"
for e in "${RUN_ENGINES[@]}"; do
  run_engine "$e"
done
log "all engines done in $((SECONDS - START)) s"

report
