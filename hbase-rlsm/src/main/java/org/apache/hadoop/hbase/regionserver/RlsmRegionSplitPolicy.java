package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.rlsm.RlsmConfig;
import org.apache.hadoop.util.ReflectionUtils;
import org.apache.yetus.audience.InterfaceAudience;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The split policy of every table with an RLSM family ({@code RlsmTables} sets it; the table's
 * own choice of policy is kept in the table value {@value RlsmConfig#SPLIT_POLICY_KEY}). Two
 * roles:
 * <ul>
 * <li><b>Master</b> ({@code SplitTableRegionProcedure} instantiates the table's policy to ask
 * {@link #skipStoreFileRangeCheck}): true, so the master writes a {@code Reference} to every
 * store file for both daughters without opening it. HBase would otherwise skip a file without
 * cells (the Level-1 manifest, so a daughter would lose its Level-1 layout) and link instead of
 * reference a file wholly on one side (links do not keep the parent from being archived before
 * the daughter rewrote them).</li>
 * <li><b>RegionServer</b>: when to split and where is the chosen policy's decision (HBase's
 * {@link SteppingSplitPolicy} by default, as for any table); the RLSM store proposes its split
 * point from the Level-1 range tree ({@link RlsmStoreFileManager#getSplitPoint}). A region
 * whose RLSM store still holds format v1 files cannot split: HBase reads references through its
 * HFile reader, which cannot read v1; the region reports itself not splittable (the master's
 * {@code DoNotRetryIOException} "NOT splittable") until a compaction rewrote them.</li>
 * </ul>
 */
@InterfaceAudience.Private
public class RlsmRegionSplitPolicy extends RegionSplitPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmRegionSplitPolicy.class);

  private RegionSplitPolicy delegate;

  @Override
  protected void configureForRegion(HRegion region) {
    super.configureForRegion(region);
    String name = region.getTableDescriptor().getValue(RlsmConfig.SPLIT_POLICY_KEY);
    if (name == null) {
      name = getConf().get(HConstants.HBASE_REGION_SPLIT_POLICY_KEY);
    }
    if (name == null || name.equals(getClass().getName())) {
      name = SteppingSplitPolicy.class.getName();
    }
    Class<? extends RegionSplitPolicy> c;
    try {
      c = Class.forName(name).asSubclass(RegionSplitPolicy.class);
    } catch (ClassNotFoundException | ClassCastException e) {
      // an exception here would abort the RegionServer (region open "can not recover"); create
      // and alter refuse such a value when the master runs RlsmMasterObserver
      LOG.error("Table {} sets {} = {}, which is not a RegionSplitPolicy on the class path; "
        + "using {}", region.getTableDescriptor().getTableName(), RlsmConfig.SPLIT_POLICY_KEY,
        name, SteppingSplitPolicy.class.getName(), e);
      c = SteppingSplitPolicy.class;
    }
    delegate = ReflectionUtils.newInstance(c, getConf());
    delegate.configureForRegion(region);
  }

  /** The policy deciding when and where to split. */
  RegionSplitPolicy delegate() {
    return delegate;
  }

  @Override
  protected boolean shouldSplit() {
    return delegate.shouldSplit();
  }

  @Override
  protected boolean canSplit() {
    if (!delegate.canSplit()) {
      return false;
    }
    for (HStore s : region.getStores()) {
      StoreEngine<?, ?, ?, ?> engine = s.getStoreEngine();
      if (engine instanceof RlsmStoreEngine && ((RlsmStoreEngine) engine).holdsV1Files()) {
        LOG.warn("Region {} is not splittable: its store {} holds RLSM format v1 files, which "
          + "split references cannot read; a major compaction rewrites them", region, s);
        return false;
      }
    }
    return true;
  }

  @Override
  protected byte[] getSplitPoint() {
    return delegate.getSplitPoint();
  }

  @Override
  protected boolean skipStoreFileRangeCheck(String familyName) {
    return true;
  }

  @Override
  public String toString() {
    return "RlsmRegionSplitPolicy[" + delegate + "]";
  }
}
