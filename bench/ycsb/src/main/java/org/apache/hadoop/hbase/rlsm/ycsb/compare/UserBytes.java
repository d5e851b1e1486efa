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
package org.apache.hadoop.hbase.rlsm.ycsb.compare;

import org.apache.yetus.audience.InterfaceAudience;

import site.ycsb.Utils;

/**
 * User bytes of YCSB operations: row key + qualifier + value of every cell a client wrote, the
 * same definition as {@code WriteAmplificationBench}. CoreWorkload's keys are "user" + the FNV hash
 * of the key number ({@code insertorder=hashed}, {@code zeropadding=1}, both the defaults), its
 * qualifiers "field0".."field(N-1)"; an insert writes every field, an update one
 * ({@code writeallfields=false}, the default of workloads A-F). The key length is averaged over
 * the loaded key numbers; run-phase inserts and updates use that average.
 */
@InterfaceAudience.Private
public final class UserBytes {
  private final double cellBytes;
  private final int fieldCount;

  public UserBytes(long records, int fieldCount, int fieldLength) {
    long keyChars = 0;
    for (long k = 0; k < records; k++) {
      keyChars += "user".length() + Long.toString(Utils.hash(k)).length();
    }
    long qualifierChars = 0;
    for (int f = 0; f < fieldCount; f++) {
      qualifierChars += ("field" + f).length();
    }
    this.cellBytes = (double) keyChars / records + (double) qualifierChars / fieldCount
      + fieldLength;
    this.fieldCount = fieldCount;
  }

  /** Bytes one written cell carries on average. */
  public double cellBytes() {
    return cellBytes;
  }

  /** User bytes of a phase's OK inserts and updates. */
  public double of(YcsbMeasurements m) {
    return cellBytes * ((double) m.ok("INSERT") * fieldCount + m.ok("UPDATE"));
  }
}
