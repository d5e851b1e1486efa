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
package org.apache.hadoop.hbase.rlsm.killloop;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * Values of the kill loop's rows: {@code <row>#<seq>#<filler>}, where the filler's length and
 * bytes follow from row and sequence number. A value read back can therefore be checked on its
 * own, without the oracle: it must name its own row and carry exactly its filler, so a value of
 * another row, a torn value or stale bytes are caught wherever they are read.
 */
@InterfaceAudience.Private
final class ValueCodec {
  private static final int MIN_FILLER = 16;
  private static final int MAX_FILLER = 2048;

  private ValueCodec() {
  }

  static byte[] encode(byte[] row, long seq) {
    byte[] head = (new String(row, StandardCharsets.US_ASCII) + "#" + seq + "#")
      .getBytes(StandardCharsets.US_ASCII);
    byte[] filler = filler(row, seq);
    byte[] v = Arrays.copyOf(head, head.length + filler.length);
    System.arraycopy(filler, 0, v, head.length, filler.length);
    return v;
  }

  /** Null if {@code value} is a well-formed value of {@code row}, else why it is not. */
  static String check(byte[] row, byte[] value) {
    String s = new String(value, StandardCharsets.US_ASCII);
    String prefix = new String(row, StandardCharsets.US_ASCII) + "#";
    if (!s.startsWith(prefix)) {
      return "value does not start with its row: " + abbreviate(s);
    }
    int hash = s.indexOf('#', prefix.length());
    if (hash < 0) {
      return "value has no sequence number: " + abbreviate(s);
    }
    long seq;
    try {
      seq = Long.parseLong(s.substring(prefix.length(), hash));
    } catch (NumberFormatException e) {
      return "value has a malformed sequence number: " + abbreviate(s);
    }
    return Arrays.equals(value, encode(row, seq)) ? null
      : "value of sequence " + seq + " has a wrong filler (" + value.length + " bytes)";
  }

  private static byte[] filler(byte[] row, long seq) {
    long x = seq * 0x9E3779B97F4A7C15L ^ Arrays.hashCode(row);
    int len = MIN_FILLER + (int) Long.remainderUnsigned(x, MAX_FILLER - MIN_FILLER);
    byte[] f = new byte[len];
    for (int i = 0; i < len; i++) {
      x ^= x << 13;
      x ^= x >>> 7;
      x ^= x << 17;
      f[i] = (byte) ('a' + Long.remainderUnsigned(x, 26));
    }
    return f;
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }
}
