package org.apache.hadoop.hbase.rlsm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The test cases of one topic, read from {@code testdata/<topic>/cases.txt} on the test class
 * path (format: src/test/resources/testdata/README.md). Each case is a named list of
 * {@code key: value} lines; lines before the first case are defaults every case inherits unless
 * it gives the key itself. A data-driven test is a JUnit {@code Parameterized} runner over
 * {@link #load(String)}.
 */
public final class CaseFile {
  private CaseFile() {
  }

  /** One case: its name and its lines in file order (a key may repeat). */
  public static final class Case {
    private final String name;
    private final List<String[]> lines;

    private Case(String name, List<String[]> lines) {
      this.name = name;
      this.lines = lines;
    }

    public String name() {
      return name;
    }

    public boolean has(String key) {
      return !all(key).isEmpty();
    }

    /** Every value of {@code key}, in file order. */
    public List<String> all(String key) {
      List<String> out = new ArrayList<>();
      for (String[] l : lines) {
        if (l[0].equals(key)) {
          out.add(l[1]);
        }
      }
      return out;
    }

    /** The one value of {@code key}; fails when the key is missing or repeated. */
    public String get(String key) {
      List<String> v = all(key);
      if (v.size() != 1) {
        throw new IllegalArgumentException(
          "case '" + name + "' must have exactly one '" + key + "' line but has " + v.size());
      }
      return v.get(0);
    }

    /** The one value of {@code key}, which must be {@code true} or {@code false}. */
    public boolean getBoolean(String key) {
      String v = get(key);
      if (!v.equals("true") && !v.equals("false")) {
        throw new IllegalArgumentException("case '" + name + "': " + key + " is not a boolean");
      }
      return v.equals("true");
    }

    /** The whitespace-separated words of {@code value}; none for an empty value. */
    public static List<String> words(String value) {
      return value.isBlank() ? List.of() : Arrays.asList(value.trim().split("\\s+"));
    }

    /** Row keys written as words: their UTF-8 bytes. */
    public static byte[][] keys(List<String> words) {
      byte[][] out = new byte[words.size()][];
      for (int i = 0; i < out.length; i++) {
        out[i] = Bytes.toBytes(words.get(i));
      }
      return out;
    }

    /** A closed key range written {@code low-high}, as its two keys. */
    public static byte[][] range(String word) {
      String[] lowHigh = word.split("-");
      if (lowHigh.length != 2) {
        throw new IllegalArgumentException("not a range low-high: " + word);
      }
      return keys(Arrays.asList(lowHigh));
    }

    /** Fails on a key the runner does not know, so a misspelt expectation cannot pass silently. */
    public void allowOnly(Set<String> keys) {
      for (String[] l : lines) {
        if (!keys.contains(l[0])) {
          throw new IllegalArgumentException(
            "case '" + name + "': unknown key '" + l[0] + "', expected one of " + keys);
        }
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** The cases of {@code topic} as JUnit parameters {@code {name, Case}}, in file order. */
  public static List<Object[]> load(String topic) {
    String resource = "/testdata/" + topic + "/cases.txt";
    try (InputStream in = CaseFile.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(resource + " is not on the test class path");
      }
      return parse(resource,
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(resource, e);
    }
  }

  private static List<Object[]> parse(String resource, BufferedReader r) throws IOException {
    Map<String, String> defaults = new LinkedHashMap<>();
    List<Object[]> cases = new ArrayList<>();
    Set<String> names = new HashSet<>();
    String name = null;
    List<String[]> lines = null;
    int number = 0;
    for (String line = r.readLine(); line != null; line = r.readLine()) {
      number++;
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#")) {
        continue;
      }
      int colon = t.indexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException(resource + ":" + number + ": not 'key: value': " + t);
      }
      String key = t.substring(0, colon).strip();
      String value = t.substring(colon + 1).strip();
      if (key.equals("case")) {
        if (name != null) {
          cases.add(close(name, lines, defaults));
        }
        if (!names.add(value)) {
          throw new IllegalArgumentException(resource + ":" + number + ": second case " + value);
        }
        name = value;
        lines = new ArrayList<>();
      } else if (name == null) {
        defaults.put(key, value);
      } else {
        lines.add(new String[] { key, value });
      }
    }
    if (name != null) {
      cases.add(close(name, lines, defaults));
    }
    if (cases.isEmpty()) {
      throw new IllegalArgumentException(resource + " holds no case");
    }
    return cases;
  }

  private static Object[] close(String name, List<String[]> lines, Map<String, String> defaults) {
    List<String[]> all = new ArrayList<>();
    for (Map.Entry<String, String> d : defaults.entrySet()) {
      if (lines.stream().noneMatch(l -> l[0].equals(d.getKey()))) {
        all.add(new String[] { d.getKey(), d.getValue() });
      }
    }
    all.addAll(lines);
    return new Object[] { name, new Case(name, all) };
  }
}
