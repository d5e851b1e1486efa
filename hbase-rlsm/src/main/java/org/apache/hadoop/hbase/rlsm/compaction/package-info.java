/**
 * RLSM compaction logic that needs no HBase store: the quickselect partitioner, victim order
 * and row placement (the RLSM paper's union-set, density, range-append, widen/new-partition rules;
 * docs/design.md), and the load-balancing decisions (split, merge, chain clean-up), all over small
 * summaries of files and partitions; the region-level decisions that follow from the Level-1
 * layout: where a region splits ({@link org.apache.hadoop.hbase.rlsm.compaction.RegionSplitPoint})
 * and the layout of a daughter or merged region ({@link
 * org.apache.hadoop.hbase.rlsm.compaction.LayoutUnion}). The engine glue turns a {@link
 * org.apache.hadoop.hbase.rlsm.compaction.CompactionPlan} into files.
 *
 * <p>Selection reads no data: the planner decides from file-info summaries (ranges, counts,
 * sketches) what to compact and what is retired; only a plan's layout (row placement, a split's
 * median; {@code PlacedLayouts}) reads rows, when the engine glue runs the plan outside HBase's
 * store locks, and a split reads none where its segments' row quantiles serve
 * ({@code PartitionHalves}).
 *
 * <p>Layering: uses {@code rlsm.index} and {@code rlsm.format} only. Invariants of every plan:
 * partition ranges stay closed, disjoint and ascending; every row of every appended victim is
 * routed to exactly one partition whose (possibly widened or new) range holds it.
 */
package org.apache.hadoop.hbase.rlsm.compaction;
