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

import java.util.ArrayList;
import java.util.List;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The failed checks of one quick-start run, in the order they were found. */
@InterfaceAudience.Private
final class Failures {
  private static final Logger LOG = LoggerFactory.getLogger(Failures.class);

  private final List<String> messages = new ArrayList<>();

  void add(String message) {
    LOG.warn("check failed: {}", message);
    messages.add(message);
  }

  boolean isEmpty() {
    return messages.isEmpty();
  }

  int size() {
    return messages.size();
  }

  List<String> first(int n) {
    return messages.subList(0, Math.min(n, messages.size()));
  }
}
