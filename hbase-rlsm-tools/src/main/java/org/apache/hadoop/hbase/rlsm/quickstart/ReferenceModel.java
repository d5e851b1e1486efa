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
package org.apache.hadoop.hbase.rlsm.quickstart;

import java.util.Comparator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.yetus.audience.InterfaceAudience;

/**
 * What the demo table should hold, following HBase's rules for the operations the demo uses: a
 * delete marker hides cells with a timestamp at or below it, and later writes always carry a
 * higher timestamp, so applying operations in order gives exactly what a read must return.
 */
@InterfaceAudience.Private
final class ReferenceModel {
  /** row -> qualifier -> timestamp (newest first) -> value. */
  final TreeMap<byte[], TreeMap<byte[], NavigableMap<Long, byte[]>>> rows =
    new TreeMap<>(Bytes.BYTES_COMPARATOR);

  void put(byte[] row, byte[] qualifier, long ts, byte[] value) {
    rows.computeIfAbsent(row, r -> new TreeMap<>(Bytes.BYTES_COMPARATOR))
      .computeIfAbsent(qualifier, q -> new TreeMap<>(Comparator.reverseOrder())).put(ts, value);
  }

  void deleteRow(byte[] row, long ts) {
    TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
    if (cols != null) {
      for (NavigableMap<Long, byte[]> versions : cols.values()) {
        versions.tailMap(ts, true).clear();
      }
      prune(row);
    }
  }

  void deleteColumn(byte[] row, byte[] qualifier, long ts) {
    NavigableMap<Long, byte[]> versions = versions(row, qualifier);
    if (versions != null) {
      versions.tailMap(ts, true).clear();
      prune(row);
    }
  }

  void deleteVersion(byte[] row, byte[] qualifier, long ts) {
    NavigableMap<Long, byte[]> versions = versions(row, qualifier);
    if (versions != null) {
      versions.remove(ts);
      prune(row);
    }
  }

  private NavigableMap<Long, byte[]> versions(byte[] row, byte[] qualifier) {
    TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
    return cols == null ? null : cols.get(qualifier);
  }

  private void prune(byte[] row) {
    TreeMap<byte[], NavigableMap<Long, byte[]>> cols = rows.get(row);
    cols.values().removeIf(Map::isEmpty);
    if (cols.isEmpty()) {
      rows.remove(row);
    }
  }
}
