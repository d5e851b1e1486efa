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
 * Command-line tools behind the {@code bin/} launchers of the standalone deployment: waiting for
 * and reporting on the standalone server ({@link org.apache.hadoop.hbase.rlsm.tool.ServerStatus}),
 * creating tables whose families use RLSM, HBase's default engine or the stripe engine
 * ({@link org.apache.hadoop.hbase.rlsm.tool.CreateTable}), the README quick start
 * ({@link org.apache.hadoop.hbase.rlsm.tool.QuickStart}), and the offline file tools
 * {@link org.apache.hadoop.hbase.rlsm.tool.RlsmVerify} (checks stores with
 * {@link org.apache.hadoop.hbase.rlsm.tool.StoreVerifier}, reporting each
 * {@link org.apache.hadoop.hbase.rlsm.tool.Damage}) and
 * {@link org.apache.hadoop.hbase.rlsm.tool.RlsmDump}, which read files directly and need no
 * server.
 * <p>
 * The server tools are plain HBase clients: they read {@code hbase-site.xml} from the classpath
 * (the repository's {@code conf/}) and talk to whatever server it names. Nothing here runs inside the
 * RegionServer. Exit codes and output formats are part of the launchers' contract; see
 * {@code docs/operations.md}.
 */
package org.apache.hadoop.hbase.rlsm.tool;
