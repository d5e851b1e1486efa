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

import java.io.IOException;
import java.nio.file.Path;
import org.apache.yetus.audience.InterfaceAudience;

/** A recorded benchmark file that is missing or does not have the expected format. */
@InterfaceAudience.Private
public class ReportFormatException extends IOException {
  private static final long serialVersionUID = 1L;

  /** {@code line} is 1-based; 0 means the problem concerns the whole file. */
  public ReportFormatException(Path file, int line, String message) {
    super(file + (line > 0 ? ":" + line : "") + ": " + message);
  }
}
