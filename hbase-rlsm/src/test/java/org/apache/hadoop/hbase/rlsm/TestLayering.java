package org.apache.hadoop.hbase.rlsm;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.HBaseClassTestRule;
import org.apache.hadoop.hbase.testclassification.MiscTests;
import org.apache.hadoop.hbase.testclassification.SmallTests;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.experimental.categories.Category;

/**
 * Enforces the layering of docs/architecture.md ("Layers") on every main source file of
 * hbase-rlsm: a package may use classes of this module only from the packages its row of
 * {@link #LAYERS} lists. Uses are imports and fully qualified names in code (comments and string
 * literals do not count). HBase's own classes in the split package
 * {@code org.apache.hadoop.hbase.regionserver} are not this module's and are always allowed; a
 * class counts as this module's when its source file is in the tree.
 */
@Category({ SmallTests.class, MiscTests.class })
public class TestLayering {
  @ClassRule
  public static final HBaseClassTestRule CLASS_RULE =
    HBaseClassTestRule.forClass(TestLayering.class);

  private static final String ROOT = "org.apache.hadoop.hbase.";

  /**
   * The layers, top first, as docs/architecture.md draws them: a package (below
   * {@code org.apache.hadoop.hbase}) and the packages of this module it may import. Every
   * package it names must have a row further down, so the table itself has no cycle.
   */
  static final String[][] LAYERS = {
    // package          may import
    { "regionserver",    "rlsm", "rlsm.memstore", "rlsm.compaction", "rlsm.file", "rlsm.index",
                         "rlsm.cachehint", "rlsm.format", "io.hfile" },
    { "rlsm.tool",       "rlsm", "rlsm.compaction", "rlsm.file", "rlsm.index", "rlsm.format",
                         "io.hfile" },
    { "rlsm",            "rlsm.memstore", "rlsm.compaction", "rlsm.file", "rlsm.format" },
    { "rlsm.memstore",   "rlsm.index", "rlsm.format" },
    { "rlsm.compaction", "rlsm.index", "rlsm.format" },
    { "rlsm.file",       "rlsm.index", "rlsm.cachehint", "rlsm.format", "io.hfile" },
    { "rlsm.ulfs",       "rlsm.cachehint" },
    { "rlsm.index",      "rlsm.format" },
    { "rlsm.cachehint",  "rlsm.format" },
    { "rlsm.format" },
    { "io.hfile" },
  };

  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;",
    Pattern.MULTILINE);
  private static final Pattern IMPORT = Pattern.compile(
    "^import\\s+(?:static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;", Pattern.MULTILINE);
  private static final Pattern QUALIFIED = Pattern.compile(
    "\\borg\\.apache\\.hadoop\\.hbase(?:\\.[a-z_]\\w*)*\\.[A-Z]\\w*");

  /** Main sources of this module, by path (relative to the source root). */
  private static Map<String, String> mainSources() throws IOException {
    Path root = Paths.get(System.getProperty("basedir", "."), "src", "main", "java");
    assertTrue("no main sources at " + root.toAbsolutePath(), Files.isDirectory(root));
    Map<String, String> out = new LinkedHashMap<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.filter(f -> f.toString().endsWith(".java")).sorted()
        .collect(Collectors.toList())) {
        out.put(root.relativize(p).toString(),
          new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  /** Top-level classes of the sources, fully qualified (package-info files name none). */
  static Set<String> classesOf(Map<String, String> sources) {
    Set<String> out = new TreeSet<>();
    sources.forEach((path, text) -> {
      String file = Paths.get(path).getFileName().toString();
      out.add(packageOf(text) + "." + file.substring(0, file.length() - ".java".length()));
    });
    return out;
  }

  static String packageOf(String text) {
    Matcher m = PACKAGE.matcher(text);
    return m.find() ? m.group(1) : "";
  }

  /**
   * Every use in {@code sources} of one of {@code ours} that the table does not allow, as
   * "path: package uses class". A package without a row is reported too.
   */
  static List<String> violations(Map<String, String> sources, Set<String> ours) {
    Map<String, Set<String>> allowed = allowedImports();
    List<String> out = new ArrayList<>();
    sources.forEach((path, text) -> {
      String pkg = packageOf(text);
      String layer = pkg.startsWith(ROOT) ? pkg.substring(ROOT.length()) : pkg;
      Set<String> may = allowed.get(layer);
      if (may == null) {
        out.add(path + ": package " + layer + " has no row in TestLayering.LAYERS");
        return;
      }
      for (String used : usedNames(text)) {
        String usedLayer = layerOf(used, ours);
        if (usedLayer != null && !usedLayer.equals(layer) && !may.contains(usedLayer)) {
          out.add(path + ": " + layer + " uses " + used + " from " + usedLayer);
        }
      }
    });
    return out;
  }

  /** The imports and the qualified names in code (comments and literals removed). */
  private static Set<String> usedNames(String text) {
    Set<String> out = new TreeSet<>();
    String code = stripCommentsAndLiterals(text);
    Matcher i = IMPORT.matcher(code);
    while (i.find()) {
      out.add(i.group(1));
    }
    Matcher q = QUALIFIED.matcher(IMPORT.matcher(code).replaceAll(""));
    while (q.find()) {
      out.add(q.group());
    }
    return out;
  }

  /**
   * The layer of a used name, or null when it is not this module's: the package is the part
   * before the first capitalised segment (a class); in the split package regionserver only
   * classes whose source is in this module count.
   */
  private static String layerOf(String used, Set<String> ours) {
    if (!used.startsWith(ROOT)) {
      return null;
    }
    String[] parts = used.split("\\.");
    StringBuilder pkg = new StringBuilder();
    String cls = null;
    for (String part : parts) {
      if (part.equals("*") || Character.isUpperCase(part.charAt(0))) {
        cls = part;
        break;
      }
      pkg.append(pkg.length() == 0 ? "" : ".").append(part);
    }
    String p = pkg.toString();
    boolean known = ours.stream().anyMatch(c -> c.startsWith(p + ".")
      && c.indexOf('.', p.length() + 1) < 0);
    if (!known || (cls != null && !cls.equals("*") && !ours.contains(p + "." + cls))) {
      return null;
    }
    return p.substring(ROOT.length());
  }

  /** {@link #LAYERS} as a map; fails when a row names a package that has no row below it. */
  static Map<String, Set<String>> allowedImports() {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    for (int i = LAYERS.length - 1; i >= 0; i--) {
      Set<String> may = new TreeSet<>();
      for (int j = 1; j < LAYERS[i].length; j++) {
        if (!out.containsKey(LAYERS[i][j])) {
          throw new IllegalStateException("LAYERS: " + LAYERS[i][0] + " may import "
            + LAYERS[i][j] + ", which has no row below it");
        }
        may.add(LAYERS[i][j]);
      }
      out.put(LAYERS[i][0], may);
    }
    return out;
  }

  /** The text with comments, string, text-block and char literals blanked (lines kept). */
  static String stripCommentsAndLiterals(String s) {
    StringBuilder out = new StringBuilder(s.length());
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      if (s.startsWith("//", i)) {
        int end = s.indexOf('\n', i);
        i = end < 0 ? s.length() : end;
      } else if (s.startsWith("/*", i)) {
        int end = s.indexOf("*/", i + 2);
        i = blank(s, i, end < 0 ? s.length() : end + 2, out);
      } else if (s.startsWith("\"\"\"", i)) {
        int end = s.indexOf("\"\"\"", i + 3);
        i = blank(s, i, end < 0 ? s.length() : end + 3, out);
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < s.length() && s.charAt(j) != c && s.charAt(j) != '\n') {
          j += s.charAt(j) == '\\' ? 2 : 1;
        }
        i = blank(s, i, Math.min(j + 1, s.length()), out);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static int blank(String s, int from, int to, StringBuilder out) {
    for (int k = from; k < to; k++) {
      out.append(s.charAt(k) == '\n' ? '\n' : ' ');
    }
    return to;
  }

  @Test
  public void mainSourcesImportOnlyDownwards() throws IOException {
    Map<String, String> sources = mainSources();
    List<String> found = violations(sources, classesOf(sources));
    assertTrue("upward or unlisted imports (fix the code, or docs/architecture.md and LAYERS "
      + "together):\n" + String.join("\n", found), found.isEmpty());
  }

  /** The check can fail: a synthetic upward import and an upward qualified name are caught. */
  @Test
  public void upwardUseIsReported() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("a/Up.java", "package org.apache.hadoop.hbase.rlsm.format;\n"
      + "import org.apache.hadoop.hbase.rlsm.index.HashIndex;\n"
      + "class Up {}\n");
    sources.put("b/Qualified.java", "package org.apache.hadoop.hbase.rlsm.index;\n"
      + "class Qualified { org.apache.hadoop.hbase.regionserver.RlsmStoreEngine e; }\n");
    sources.put("c/Static.java", "package org.apache.hadoop.hbase.rlsm.compaction;\n"
      + "import static org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter.open;\n");
    Set<String> ours = Set.of("org.apache.hadoop.hbase.rlsm.index.HashIndex",
      "org.apache.hadoop.hbase.regionserver.RlsmStoreEngine",
      "org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter");
    assertEquals(List.of(
      "a/Up.java: rlsm.format uses org.apache.hadoop.hbase.rlsm.index.HashIndex from rlsm.index",
      "b/Qualified.java: rlsm.index uses org.apache.hadoop.hbase.regionserver.RlsmStoreEngine"
        + " from regionserver",
      "c/Static.java: rlsm.compaction uses org.apache.hadoop.hbase.rlsm.file.RlsmFileWriter.open"
        + " from rlsm.file"),
      violations(sources, ours));
  }

  /** Not uses: HBase's own regionserver classes, names in comments and string literals. */
  @Test
  public void hbaseClassesCommentsAndStringsAreNotUses() {
    Map<String, String> sources = new LinkedHashMap<>();
    sources.put("Ok.java", "package org.apache.hadoop.hbase.rlsm.memstore;\n"
      + "import org.apache.hadoop.hbase.regionserver.MemStoreLAB;\n"
      + "/** See {@link org.apache.hadoop.hbase.regionserver.RlsmHashMemStore}. */\n"
      + "class Ok { String n = \"org.apache.hadoop.hbase.regionserver.RlsmHashMemStore\"; }\n");
    Set<String> ours = Set.of("org.apache.hadoop.hbase.regionserver.RlsmHashMemStore");
    assertEquals(List.of(), violations(sources, ours));
  }

  @Test
  public void packageWithoutRowIsReported() {
    Map<String, String> sources =
      Map.of("X.java", "package org.apache.hadoop.hbase.rlsm.extra;\n");
    assertEquals(List.of("X.java: package rlsm.extra has no row in TestLayering.LAYERS"),
      violations(sources, Set.of()));
  }
}
