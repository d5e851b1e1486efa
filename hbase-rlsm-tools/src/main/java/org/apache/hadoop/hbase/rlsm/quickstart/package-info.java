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
 * The README quick start ({@code bin/quickstart}): a demo of an RLSM table on the standalone
 * server that checks every read against a model. {@link
 * org.apache.hadoop.hbase.rlsm.quickstart.QuickStart} is the command line and the sequence of
 * steps; {@link org.apache.hadoop.hbase.rlsm.quickstart.DemoWorkload} writes the data set and
 * records each write in the {@link org.apache.hadoop.hbase.rlsm.quickstart.ReferenceModel};
 * {@link org.apache.hadoop.hbase.rlsm.quickstart.ReadChecks} compares Gets and Scans with the
 * model; {@link org.apache.hadoop.hbase.rlsm.quickstart.CompactionWait} compacts; {@link
 * org.apache.hadoop.hbase.rlsm.quickstart.StoreFileReport} lists and validates the store files.
 * <p>
 * Invariant: the model is updated with exactly the operations sent, in order, and every write
 * carries a higher timestamp than the ones before it, so the model is what HBase must return.
 * A failed check never stops the run; it is collected in
 * {@link org.apache.hadoop.hbase.rlsm.quickstart.Failures} and makes the exit code 1. This is a
 * plain HBase client; nothing here runs in the RegionServer.
 */
package org.apache.hadoop.hbase.rlsm.quickstart;
