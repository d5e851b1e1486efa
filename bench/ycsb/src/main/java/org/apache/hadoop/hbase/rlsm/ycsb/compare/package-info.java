/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * The report of {@code bench/scripts/ycsb-compare.sh}: reads what the script recorded for each
 * engine (YCSB's measurement output per phase, snapshots of the server's JMX beans,
 * {@code /proc/<pid>/io} and store-file listings after each phase, the server log) and writes the
 * CSV, JSON and plot data of docs/benchmarks.md plus a summary table with ratios to the default
 * engine ({@link CompareReport}).
 *
 * <p>Invariants: every figure is derived from the recorded files only, so a report can be redone
 * from a results directory without running anything; a recorded file that cannot be parsed fails
 * the report with a {@link ReportFormatException} naming the file and line, never a silently
 * missing value; a figure that was not recorded for an engine (store-file listings per phase on
 * ulfs, RLSM counters of HBase's engines) is reported as empty, never as zero.
 */
package org.apache.hadoop.hbase.rlsm.ycsb.compare;
