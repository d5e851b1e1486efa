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
 * Benchmarks that run HBase's mini cluster (master, RegionServers, ZooKeeper, for some HDFS), or
 * for read costs local regions, inside one JVM, each a {@code main} started by a script in
 * {@code bench/scripts/}:
 * {@link org.apache.hadoop.hbase.rlsm.bench.cluster.WriteAmplificationBench}
 * ({@code write-amp.sh}: bytes written by the default, stripe and RLSM engines for the same load),
 * {@link org.apache.hadoop.hbase.rlsm.bench.cluster.MultiRegionWriteBench}
 * ({@code multi-region.sh}: the same on pre-split or auto-split tables over 3 RegionServers on
 * HDFS, with load throughput and regions per server),
 * {@link org.apache.hadoop.hbase.rlsm.bench.cluster.CacheTraceBench} ({@code cache-mrc.sh}:
 * a ulfs page-access trace of an RLSM table for the cache simulator) and
 * {@link org.apache.hadoop.hbase.rlsm.bench.cluster.ReadPathBench} ({@code read-path.sh}: pinned
 * heap, open time, Gets, scans and bytes of RLSM against the default engine) and
 * {@link org.apache.hadoop.hbase.rlsm.bench.cluster.ReadCostBench} ({@code read-costs.sh}: data
 * blocks, Bloom checks, allocations and CPU per read on local regions, with RLSM's layout and
 * compaction bytes per segment bound). Results and how to
 * read them: {@code docs/benchmarks.md}. Nothing here is part of the engine or its tests.
 */
package org.apache.hadoop.hbase.rlsm.bench.cluster;
