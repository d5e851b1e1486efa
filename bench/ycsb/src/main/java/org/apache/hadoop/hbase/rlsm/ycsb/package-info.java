/**
 * The project's YCSB 0.17.0 binding for HBase 2.6 ({@link RlsmHBaseClient}), used by
 * {@code bench/ycsb/ycsb} and the side-by-side benchmark harness to drive tables of any store
 * engine (RLSM, HBase's default, stripe) through the ordinary HBase client.
 *
 * <p>Invariants: the binding never looks at the store engine, so every engine is measured through
 * the same client code path; all client threads of one JVM that talk to the same cluster share one
 * {@link org.apache.hadoop.hbase.client.Connection} ({@link SharedConnection}), which the last
 * thread to clean up closes; an operation's failure is reported as a YCSB status and logged, never
 * thrown; bad binding properties fail {@code init()} with a message naming the property.
 */
package org.apache.hadoop.hbase.rlsm.ycsb;
