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
 * The client tools of the standalone deployment behind the {@code bin/} launchers: waiting for
 * and reporting on the server ({@link org.apache.hadoop.hbase.rlsm.standalone.ServerStatus},
 * {@code bin/hbase-start}, {@code bin/hbase-status}) and creating tables whose families use
 * RLSM, HBase's default engine or the stripe engine
 * ({@link org.apache.hadoop.hbase.rlsm.standalone.CreateTable}, {@code bin/create-table}, and
 * {@code create} in {@code bin/hbase-shell}).
 * <p>
 * These are plain HBase clients: they read {@code hbase-site.xml} from the classpath (the
 * repository's {@code conf/}) and talk to whatever server it names; nothing here runs inside the
 * RegionServer, and the server's class path does not hold this module. Exit codes and output
 * formats are part of the launchers' contract; see {@code docs/operations.md}.
 */
package org.apache.hadoop.hbase.rlsm.standalone;
