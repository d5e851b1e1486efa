package org.apache.hadoop.hbase.regionserver;

/** What tests outside HBase's package need to see of a store. */
public final class RlsmTestStores {
  private RlsmTestStores() {
  }

  /** The class of the memstore HBase chose for the store (package-private in HStore). */
  public static Class<? extends MemStore> memStoreClass(HStore store) {
    return store.memstore.getClass();
  }
}
