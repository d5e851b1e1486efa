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
 * The operator tools that belong on a server, behind {@code bin/rlsm-verify},
 * {@code bin/rlsm-dump} and {@code bin/rlsm-leave}:
 * {@link org.apache.hadoop.hbase.rlsm.tool.RlsmVerify} checks stores offline with
 * {@link org.apache.hadoop.hbase.rlsm.tool.StoreVerifier}, reporting each
 * {@link org.apache.hadoop.hbase.rlsm.tool.Damage}, and
 * {@link org.apache.hadoop.hbase.rlsm.tool.RlsmDump} prints one file; both read files directly
 * through any Hadoop file system and need no running server.
 * {@link org.apache.hadoop.hbase.rlsm.tool.RlsmLeave} takes families of a live table back to
 * HBase's default engine through the cluster's Admin API (docs/install.md, "Removing RLSM").
 * {@link org.apache.hadoop.hbase.rlsm.tool.ToolSupport} (configuration, argument parsing) is
 * shared with the client tools of the {@code hbase-rlsm-tools} module.
 * <p>
 * Nothing here runs inside the RegionServer. Exit codes and output formats are part of the
 * launchers' contract; see {@code docs/operations.md}.
 */
package org.apache.hadoop.hbase.rlsm.tool;
