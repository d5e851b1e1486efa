#!/usr/bin/env bash
# The kill -9 loop (docs/kill-loop.md): a standalone HBase server in a child JVM is killed with
# SIGKILL at random moments under load on an RLSM table and a default-engine control table, and
# after every restart every key is checked against an oracle kept in this process.
#   bench/scripts/kill-loop.sh [--minutes M] [--cycles N] [--fs local|ulfs|ulfs-power] [--seed S]
# Options are those of org.apache.hadoop.hbase.rlsm.killloop.KillLoop (hbase-rlsm-tools; see the
# doc); the data directory defaults to <repo>/run-killloop (wiped first). Exit code 0 only if
# nothing acknowledged was lost and nothing wrong was read. With --fs ulfs, rootdir is on a ulfs
# image and the kill is the death of the process (SYNC_WAL: hflush); with --fs ulfs-power the
# image's unflushed writes live only in the server's memory (fs.ulfs.fault.volatile), so every
# kill is also a power cut for them, and WALs sync with hsync (hbase.wal.hsync, FSYNC_WAL).
set -euo pipefail
# shellcheck source=bin/rlsm-env.sh
source "$(dirname "$0")/../../bin/rlsm-env.sh"
DATA="${KILL_LOOP_DIR:-$RLSM_REPO/run-killloop}"
# Builds the engine and the tools when needed; runs on the launchers' class path (the server
# child inherits it).
rlsm_module_classpath hbase-rlsm-tools
rlsm_tools_classpath
rm -rf "$DATA"
mkdir -p "$DATA/logs"
# The client's own log goes to the data directory; the console shows the loop's progress and
# errors only (a killed server makes the HBase client warn a lot, by design).
RLSM_JAVA_OPTS="$RLSM_JAVA_OPTS -Drlsm.data.dir=$DATA -Drlsm.console.level=ERROR"
RLSM_JAVA_OPTS="$RLSM_JAVA_OPTS -Drlsm.log.file=kill-loop-client.log"
rlsm_java_tool org.apache.hadoop.hbase.rlsm.killloop.KillLoop --dir "$DATA" \
  --conf-dir "$RLSM_REPO/conf" "$@"
