package org.apache.hadoop.hbase.regionserver;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.TableDescriptor;
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
 * The master instantiates a policy only when the table descriptor names one; with this class as
 * the site default ({@code hbase.regionserver.region.split.policy}) and a descriptor naming none,
 * the RegionServer runs this policy but the master splits the region as HFiles, and the daughters
 * could not open. So a region with an RLSM store whose descriptor does not name this class is
 * not splittable, explicitly or automatically; {@code RlsmMasterObserver} names it at create
 * and alter (docs/architecture.md, "Split and merge").
 */
@InterfaceAudience.Private
public class RlsmRegionSplitPolicy extends RegionSplitPolicy {
  private static final Logger LOG = LoggerFactory.getLogger(RlsmRegionSplitPolicy.class);

  private RegionSplitPolicy delegate;

  /**
   * Whether the master will skip its store-file range check when splitting this region: the
   * descriptor names this policy, or the region has no RLSM store. Fixed at region open (a
   * descriptor change reopens the region).
   */
  private boolean masterReferencesAll;

  @Override
  protected void configureForRegion(HRegion region) {
    super.configureForRegion(region);
    masterReferencesAll = namedBy(region.getTableDescriptor())
      || region.getStores().stream()
        .noneMatch(s -> s.getStoreEngine() instanceof RlsmStoreEngine);
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

  /**
   * Whether {@code td} names this policy as its {@code SPLIT_POLICY}: only then does the master
   * split a region of the table with references to every RLSM file, manifest included.
   */
  static boolean namedBy(TableDescriptor td) {
    return RlsmConfig.RLSM_SPLIT_POLICY_CLASS_NAME.equals(td.getRegionSplitPolicyClassName());
  }

  /** The policy deciding when and where to split. */
  RegionSplitPolicy delegate() {
    return delegate;
  }

  @Override
  protected boolean shouldSplit() {
    // silent: asked at every flush; an explicit split request reaches canSplit, which logs
    return masterReferencesAll && delegate.shouldSplit();
  }

  @Override
  protected boolean canSplit() {
    if (!delegate.canSplit()) {
      return false;
    }
    if (!masterReferencesAll) {
      LOG.warn("Region {} is not splittable: table {} uses {} but its descriptor does not name "
        + "{} as SPLIT_POLICY (it is only the configured default), so the master would split its "
        + "RLSM files as HFiles. Set the table's SPLIT_POLICY to {} (its own policy goes to the "
        + "table value {}), or enable {} on the master and alter the table once",
        region.getRegionInfo().getEncodedName(), region.getTableDescriptor().getTableName(),
        RlsmConfig.ENGINE_CLASS_NAME, getClass().getName(), getClass().getName(),
        RlsmConfig.SPLIT_POLICY_KEY, "org.apache.hadoop.hbase.rlsm.RlsmMasterObserver");
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
