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
 * The kill -9 loop: a standalone HBase server in a child process is killed with SIGKILL
 * at random moments while writer and reader threads run puts, deletes, increments, gets and scans
 * against an RLSM table and a default-engine control table, with flushes and compactions forced
 * often; after every restart every key is checked against an oracle kept in this (the parent)
 * process, outside the fault domain.
 * <p>
 * Invariants the loop enforces: an acknowledged put or delete is visible after the restart unless
 * a later operation on the same key replaced it; an operation that was sent but not acknowledged
 * ("pending") may show its old or its new effect, never anything else; an acknowledged increment
 * is counted exactly, a pending one at most once; no row outside the oracle exists; every value
 * read, during the load or after it, is well formed for its row. Each key is written by one thread
 * only, and a thread whose operation failed stops for the rest of the cycle, so "later wins" is
 * well defined and no unacknowledged operation can land after a newer acknowledged one.
 * <p>
 * Entry point {@link org.apache.hadoop.hbase.rlsm.killloop.KillLoop}; the check after a restart
 * is {@link org.apache.hadoop.hbase.rlsm.killloop.OracleCheck} (client reads against the oracle,
 * unlike the engine's offline file check {@code StoreVerifier} of {@code bin/rlsm-verify}).
 * Reproducible runs with {@code bench/scripts/kill-loop.sh} (docs/kill-loop.md).
 */
package org.apache.hadoop.hbase.rlsm.killloop;
