// The cross-check of the reader's tree against yaml-cpp (tests/support/yaml_crosscheck.h) on
// every fixture YAML file, the shared conformance corpus when present, a table of tricky
// snippets, and seeded random documents.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "tests/support/run_binary.h"
#include "tests/support/yaml_crosscheck.h"
#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

namespace fs = std::filesystem;

using testing::cross_check;
using Outcome = testing::CrossCheck;

// A flow collection starting a line no deeper than a key with no value on the line before is
// that key's value to go-yaml, and what follows its `:` is a null key's (recorded from go-yaml
// v2.4: `a:\n[]: t()` is {a: [], nil: "t()"}); yaml-cpp reads `[]` as a key, so the
// cross-check leaves such text out (yaml_cpp_reads_differently).
TEST(ReaderCrossCheck, AFlowCollectionBelowAKeyWithNoValueIsLeftOut) {
  for (std::string_view input : {"a: #c\n[]: t()\n", "a:\n{}: t()\n"}) {
    SCOPED_TRACE(std::string(input));
    diag::Diagnostics diags;
    auto docs = internal::load_with(input, "t.yaml", diags, {}, nullptr);
    EXPECT_EQ(diags.size(), 0u);
    ASSERT_EQ(docs.size(), 1u);
    const Node& root = docs[0].root;
    ASSERT_EQ(root.items.size(), 2u);
    EXPECT_EQ(root.items[0].key.text, "a");
    EXPECT_TRUE(root.items[0].value.kind == Kind::kArray || root.items[0].value.kind == Kind::kMap);
    EXPECT_EQ(root.items[1].key.kind, Kind::kNull);
    EXPECT_EQ(root.items[1].value.text, "t()");
    EXPECT_TRUE(testing::yaml_cpp_reads_differently(input));
  }
}

struct Tally {
  int inputs = 0, read = 0, checked = 0;
  void add(const Outcome& o) {
    ++inputs;
    read += o.read ? 1 : 0;
    checked += o.checked ? 1 : 0;
  }
  void report(const char* what) const {
    std::cout << "[ cross-check ] " << what << ": " << inputs << " inputs, " << read
              << " read whole, " << checked << " compared with yaml-cpp\n";
  }
};

Tally check_tree(const fs::path& root) {
  Tally tally;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    // Fixtures hold symlinks (dangling ones, loops): only the files themselves are read.
    if (e.is_symlink() || !e.is_regular_file()) continue;
    std::string ext = e.path().extension().string();
    if (ext == ".yaml" || ext == ".yml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& p : files) {
    SCOPED_TRACE(p.string());
    Outcome o = cross_check(hintkit::testing::slurp(p));
    EXPECT_EQ(o.difference, "");
    tally.add(o);
  }
  return tally;
}

TEST(ReaderCrossCheck, EveryFixture) {
  Tally t = check_tree(fs::path(HINTKIT_SOURCE_DIR) / "fixtures");
  t.report("fixtures/**/*.yaml");
  EXPECT_GT(t.inputs, 100);
  EXPECT_GT(t.checked * 2, t.inputs) << "most fixtures should be compared";
}

TEST(ReaderCrossCheck, TheConformanceCorpus) {
  // The shared corpus sits next to the repository (../shared), outside it: used when present.
  // (A worktree elsewhere names it in HINTKIT_CONFORMANCE_DIR.)
  fs::path root = fs::path(HINTKIT_SOURCE_DIR) / ".." / "shared" / "conformance";
  if (const char* dir = std::getenv("HINTKIT_CONFORMANCE_DIR")) root = dir;
  if (!fs::is_directory(root)) GTEST_SKIP() << root << " is not here";
  check_tree(root).report("conformance corpus");
}

TEST(ReaderCrossCheck, TrickySnippets) {
  struct Case {
    std::string_view input;
    bool read;  // go-yaml's reader takes it whole (false: either way)
  };
  const Case cases[] = {
      {"", true},
      {"# only a comment\n", true},
      {"a: 1\n", true},
      {"a: 1", true},
      {"a:\n", true},
      {"a:", true},
      {"a:\nb:\n", true},
      {"a:\nnull: 1\n", true},
      {"a:\n~: 1\n", true},
      {"a: ~\nb: null\nc: Null\nd: NULL\ne: nil\n", true},
      {"key with spaces  : value with spaces   \n", true},
      {"a: b#c\nd: e # comment\n", true},
      {"a: http://x.y/z?q=1#frag\n", true},
      {"a: yes\nb: No\nc: 0x1F\nd: 017\ne: 1_000\nf: .5\ng: 1e3\nh: -.inf\ni: .NaN\n", true},
      {"a: 2001-12-14\nb: 2001-12-14T21:59:43.10-05:00\n", true},
      {"a: 9223372036854775808\nb: 18446744073709551616\n", true},
      {"nested:\n  key: \"quoted\"\n  list:\n  - a\n  - b: 2\n", true},
      {"first: 1\nnested:\n  key: \"quoted\"\n  list:\n  - a\n  - b: 2\n", true},
      {"- a\n- b\n-\n- c\n", true},
      // go-yaml reads '!', ',', '[' and ']' on in a tag's suffix (yaml-cpp ends the tag there:
      // text with tags is not compared).
      {"a: !!str!1 x\n", true},
      {"[!a,b ]\n", true},
      {"- !x[1] y\n", true},
      {"-\n-\n", true},
      {"- a: 1\n  b: 2\n- c: 3\n", true},
      {"- a:\n    x: 1\n  b: 2\n", true},
      {"- a:\n  - x\n  - y\n  b: 1\n", true},
      {"a:\n- 1\n- 2\nb:\n  - 3\n", true},
      {"a:\n  - b:\n    - c\n", true},
      {"a:\n  b:\n    c:\n      d: 1\n  e: 2\nf: 3\n", true},
      {"a:\n    b: 1\n  c: 2\n", false},
      {"   a: 1\n   b: 2\n", true},
      {"a: [1, 2, 3]\nb: {x: 1, y: [a, b]}\nc: []\nd: {}\n", true},
      {"a: [1, 2,]\nb: {x: 1,}\n", true},
      {"a: [\n  1,\n  2\n]\nb: {\n  x: 1, # c\n  y: 2\n}\n", true},
      {"a: [a b, c  d , 'e', \"f\"]\n", true},
      {"a: {x: , y: 1}\nb: {z:}\n", true},
      {"a: {\"x\":1, 'y': 2}\n", true},
      {"a: [1, [2, [3, {b: [4]}]]]\n", true},
      {"a: [x: 1]\n", false},
      // An empty key in a flow list: go-yaml's parser takes the `,` after it too (ytt:
      // `[x, {null: z}, {true: null}]`), yaml-cpp does not.
      {"b: [x, ?    ,:z,? y]\n", false},
      {"a: {x, y: 1}\n", false},
      {"[1, 2]\n", true},
      {"{a: 1}\n", true},
      {"just a scalar\n", true},
      {"\"quoted root\"\n", true},
      {"a: 'it''s'\nb: \"tab\\there\\n\\u00e9\\x41\\U0001F600\\\\\\\"\\0\"\n", true},
      // `\/` is no escape of go-yaml's ("found unknown escape character"): declined.
      {"a: \"\\/\"\n", false},
      {"a: \"\\L\\P\\e\\a\\b\\v\\f\\r\\ \"\n", true},
      // `\N` and `\_`: go-yaml writes U+0085 / U+00A0, yaml-cpp one byte: left out.
      {"a: \"\\N\"\n", false},
      {"a: \"\\_\"\n", false},
      {"a: \"\\q\"\n", false},
      {"a: \"\\uD800\"\n", false},
      {"a: \"one\n  two\n\n  three\"\n", true},
      {"a: 'one\n  two\n\n\n  three  '\n", true},
      {"a: \"trailing \\\n  escaped break\"\n", true},
      {"a: \"spaces   \n   x\"\n", true},
      {"a: \"x\n---\n\"\n", false},
      {"a: \"unterminated\n", false},
      {"a: |\n  line 1\n  line 2\nb: 1\n", true},
      {"a: |\n  line 1\n\n  line 3\n\n\nb: 1\n", true},
      {"a: |-\n  x\n\n", true},
      {"a: |+\n  x\n\n\n", true},
      {"a: |2\n    indented\n  x\n", true},
      {"a: |1-\n  two\n", true},
      {"a: |-2\n   three\n", true},
      {"a: >\n  folded\n  text\n\n  para\n    more\n  back\nb: 1\n", true},
      {"a: >-\n\n  leading blank\n  x\n", true},
      {"a: >+\n  keep\n\n", true},
      {"a: >\n   \n  x\n", false},
      {"a: >\n  \n   x\n", true},
      {"a: |\n  x\n   \n  y\n", true},
      {"a: | # comment\n  x\n", true},
      {"a: |\nb: 1\n", true},
      {"a: |", true},
      {"a: |\n  no final break", true},
      {"- |\n  in a list\n- >\n  folded\n  in list\n", true},
      {"- a: |\n    x\n  b: 1\n", true},
      {"a: |0\n  x\n", false},
      {"a: |\n\tx\n", false},
      {"--- |\n  root block\n", true},
      {"--- |+\n  a\n\n--- >-\n text\n", true},
      {"a: &x 1\nb: *x\n", true},
      {"a: &x\n  k: v\nb: *x\nc: &y [1, 2]\nd: *y\n", true},
      {"base: &b {x: 1, y: [1, 2]}\ncopy: *b\n", true},
      {"a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nm:\n  <<: [*a, *b]\n  z: 3\n", true},
      {"a: &a {x: 1}\nm:\n  <<: *a\n  x: 2\n", true},
      {"m:\n  <<: 1\n", true},
      {"a: *nope\n", false},
      {"a: &x\nb: 1\n", true},
      {"a: !!str\nb: 1\n", true},
      {"a: !!str 12\nb: !!int \"12\"\nc: !!float 3\nd: !!bool \"yes\"\ne: !!null \"\"\n", true},
      {"a: !!int abc\n", true},
      {"a: !local x\nb: !!map {x: 1}\nc: !!seq\n- 1\n", true},
      {"a: &x !!str 1\nb: !!str &y 2\n", true},
      {"- &a\n  x: 1\n- *a\n", true},
      {"a: 1\nb: 2\na: 3\n", true},
      {"\"a\": 1\na: 2\n'a': 3\n", true},
      {"1: a\n\"1\": b\n1: c\n", true},
      {"a: 1\n---\n---\nb: 2\n--- ~\n", true},
      {"---\na: 1\n...\n---\nb: 2\n...\n", true},
      {"a: 1\n...\nb: 2\n", false},  // a document after `...` needs `---` (an error)
      {"---\n", true},
      // An empty document at the end of an input without a final line end (its null root
      // sits where the input ends, on both paths; found by fuzz/yaml_differential.cpp).
      {"---", true},
      {"#@data/values\n---", true},
      {"a: 1\n---\n#@ x", true},
      {"a: 1\n--- # c", true},
      {"x: 1\n---\n  Ea", false},
      {"--- # c\n", true},
      {"---\n...\n", true},
      {"--- a\n--- [1]\n--- 'q'\n", true},
      {"...\n", false},
      {"%YAML 1.1\n---\na: 1\n", false},
      {"? a\n: b\n", false},
      {"a: b: c\n", false},
      {"a:\n  - b\n  c: d\n", false},
      {"a: [1, 2\n", false},
      {"a: 1\n---\nb: [\n", false},
      {"a:\tb\n", false},
      {"a: b\r\nc: d\r\n", false},
      {"\xEF\xBB\xBF"
       "a: 1\n",
       false},
      {"a: multi\n  line plain\n", false},
      {"a: b\n  # comment\nc: d\n", true},
      {"a: b\n\n  \nc: d\n", true},
      {"- - a\n  - b\n", true},
      {"- - - a\n    - b\n  - c\n- d\n", true},
      {"- - |\n    deep\n  - x\n", true},
      {"- &a - x\n", false},
      // An empty key with properties (found by fuzz/yaml_differential.cpp): `- {null: x}`.
      {"- !!null : x\n", false},
      // Folded blocks: go-yaml's breaks after the text (scripts/fuzz_yaml_errors.py, seed 10).
      {"b: 2\nlist:\n- >+\n  a\n\n  b\n\n", true},
      {"k: >\n  a\n  b\n  ", true},
      // Properties before a block scalar in a list item: yaml-cpp's path failed on these.
      {"- !!str |\n  t\n", true},
      {"- &a |\n  t\n- *a\n", true},
      {"- &a : x\n- !x : y\n", false},
      {"a:\n- &a !!str : x\n  b: 1\n", false},
      {"#@data/values\n---\na: 1 #@ trailing\n#@schema/default 3\nb: 2\n", true},
      {"#@ load(\"x.star\", \"f\")\na:\n  #@overlay/match by=\"name\"\n  - name: x\n", true},
      {"a: 1\n#@ trailing at the end\n", true},
      {"a: 1 # plain\n# another\nb: [1, # in flow\n  2]\n", true},
      {"greeting: \"Grüße 😀\"\nplain: Grüße\n", true},
      {"a: -1\nb: - x\n", false},
      {"-1: a\n-x: b\n:x: c\n?x: d\n", true},
      {"a: x:y\nb: x::z\n", true},
      {"a: x::\n", false},
      {"a: `x`\n", false},
      {"a: @x\n", false},
      {"a: %x\n", false},
      {"---a: 1\n", false},
      {"a: ---\nb: ...\n", true},
      {"a: !!binary aGVsbG8=\n", true},
      // yaml-cpp drops the tag of an empty node at the end of the input; the loader restores it.
      {"--- !!int", true},
      {"a: !!timestamp\nb: !!timestamp 2001-12-14\n", true},
      {"- !!timestamp x\n", true},
      {"\"a\nb\": 1\n", false},
      // A block scalar at its entry's column: the entry's value to go-yaml, a document of its
      // own or an error to yaml-cpp (yaml_differential).
      {"-\n|\n", true},
      {"- \n|- \n- |\n  x\n", true},
      // A quoted scalar ending in line breaks: yaml-cpp keeps one break fewer than go-yaml
      // (yaml_differential).
      {"\"\r\n\r\n\"\r\n\r\n\n", true},
      {"a: ' \n\n '\nb: \"\n \n\n\"\n", true},
      {"? \"1.AIL. %0\n\n\n \"\n", true},
  };
  Tally t;
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.input));
    Outcome o = cross_check(c.input);
    EXPECT_EQ(o.difference, "");
    if (c.read) {
      EXPECT_TRUE(o.read) << "go-yaml's reader stopped";
    }
    t.add(o);
  }
  t.report("snippets");
}

// Random nested documents in the supported subset (and some outside it).
class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string document() {
    out_.clear();
    anchors_.clear();
    int docs = pick(4) == 0 ? 2 + pick(2) : 1;
    for (int d = 0; d < docs; ++d) {
      anchors_.clear();
      if (docs > 1 || pick(3) == 0) out_ += pick(3) == 0 ? "--- # doc\n" : "---\n";
      maybe_comment(0);
      if (pick(5) == 0) {
        seq_block(0, 0);
      } else {
        map_block(0, 0);
      }
      if (pick(6) == 0) out_ += "...\n";
    }
    return out_;
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  std::string ind(int n) { return std::string(static_cast<size_t>(n), ' '); }

  std::string word() {
    static const char* const kWords[] = {
        "a",   "name",       "value", "x_1",  "port",  "yes",  "No",
        "on",  "null",       "~",     "true", "1",     "-2",   "0x1F",
        "017", "1_000",      ".5",    "1e3",  "-.inf", ".nan", "2001-12-14",
        "<<",  "http://h/p", "a b",   "k-8s", "Grüße", "x:y",  "9223372036854775808",
        "-",   "a#b",        "0o17",  "+1",   "1.",    "'",    "\"",
        "?x",  ":x"};
    return kWords[pick(static_cast<int>(std::size(kWords)))];
  }

  std::string quoted() {
    static const char* const kDouble[] = {"\"\"",
                                          "\"a b\"",
                                          "\"tab\\t\"",
                                          "\"\\u00e9\\x41\"",
                                          "\"q\\\"q\"",
                                          "\"yes\"",
                                          "\"1\"",
                                          "\"\\\\\"",
                                          "\"a\n  b\"",
                                          "\"a\n\n  b \"",
                                          "\"x\\\n  y\"",
                                          "\"\\U0001F600\"",
                                          "\"# not a comment\""};
    static const char* const kSingle[] = {"''",       "'it''s'",      "'a: b'", "'1'",
                                          "'a\n  b'", "'  spaced  '", "'#x'"};
    if (pick(2) == 0) return kDouble[pick(static_cast<int>(std::size(kDouble)))];
    return kSingle[pick(static_cast<int>(std::size(kSingle)))];
  }

  std::string key() {
    switch (pick(8)) {
      case 0:
        return "\"" + word() + "\"";
      case 1:
        return "'k" + std::to_string(pick(5)) + "'";
      default: {
        std::string w = word();
        if (w == "-" || w == "'" || w == "\"" || w == "a#b" || w == "x:y" || w == "~" ||
            w == "?x" || w == ":x") {
          w = "k";
        }
        return w + (pick(3) == 0 ? std::to_string(pick(4)) : "");
      }
    }
  }

  void maybe_comment(int indent) {
    switch (pick(10)) {
      case 0:
        out_ += ind(indent) + "# a comment\n";
        break;
      case 1:
        out_ += ind(indent) + "#@schema/default " + std::to_string(pick(9)) + "\n";
        break;
      case 2:
        out_ += "\n";
        break;
      default:
        break;
    }
  }

  std::string props() {
    std::string p;
    if (pick(8) == 0) {
      std::string name = "a" + std::to_string(pick(4));
      anchors_.push_back(name);
      p += "&" + name + " ";
    }
    if (pick(12) == 0) p += pick(2) ? "!!str " : "!!int ";
    return p;
  }

  std::string trailing() {
    switch (pick(8)) {
      case 0:
        return " # note";
      case 1:
        return " #@schema/nullable";
      default:
        return "";
    }
  }

  std::string flow(int depth) {
    if (depth > 3 || pick(3) == 0) {
      std::string w = pick(4) == 0 ? quoted() : word();
      if (w == "-" || w == "?x" || w == ":x" || w == "a#b" || w == "x:y" || w == "'" || w == "\"" ||
          w.find('\n') != std::string::npos) {
        w = "w";
      }
      return w;
    }
    std::string s;
    int n = pick(4);
    if (pick(2) == 0) {
      s = "[";
      for (int i = 0; i < n; ++i) s += (i ? ", " : "") + flow(depth + 1);
      if (n > 0 && pick(5) == 0) s += ",";
      s += "]";
    } else {
      s = "{";
      for (int i = 0; i < n; ++i) {
        s += (i ? ", " : "") + std::string("f") + std::to_string(i) + ": " +
             (pick(6) == 0 ? "" : flow(depth + 1));
      }
      s += "}";
    }
    if (pick(6) == 0) s = "[\n  " + s + ",\n  x\n  ]";
    return s;
  }

  std::string block_scalar(int indent) {
    std::string h = pick(2) ? "|" : ">";
    switch (pick(4)) {
      case 0:
        h += "-";
        break;
      case 1:
        h += "+";
        break;
      default:
        break;
    }
    int extra = 2;
    if (pick(5) == 0) {
      extra = 1 + pick(3);
      h += std::to_string(extra);
    }
    std::string body;
    int lines = 1 + pick(4);
    for (int i = 0; i < lines; ++i) {
      switch (pick(6)) {
        case 0:
          body += "\n";
          break;
        case 1:
          body += ind(indent + extra + 2) + "more indented\n";
          break;
        case 2:
          body += ind(indent + extra) + "  \n";
          break;
        default:
          body += ind(indent + extra) + "line " + std::to_string(i) + "\n";
          break;
      }
    }
    if (pick(3) == 0) body += "\n";
    return h + trailing() + "\n" + body;
  }

  // A value after `key:` or `- `; `indent` is the enclosing collection's column.
  void value(int indent, int depth, bool in_seq) {
    int choice = depth > 4 ? pick(5) : pick(9);
    if (!anchors_.empty() && pick(10) == 0) choice = 9;
    switch (choice) {
      case 0:
      case 1:
        out_ += " " + props() + word() + trailing() + "\n";
        return;
      case 2:
        out_ += " " + props() + quoted() + trailing() + "\n";
        return;
      case 3:
        out_ += " " + props() + flow(0) + trailing() + "\n";
        return;
      case 4:
        out_ += " " + block_scalar(indent);
        return;
      case 5:
        out_ += pick(4) == 0 ? " " + props() + "\n" : "\n";
        return;
      case 6:
      case 7: {
        int child = indent + 2 + (pick(4) == 0 ? 2 : 0);
        out_ += (pick(8) == 0 ? " " + props() : std::string()) + trailing() + "\n";
        map_block(child, depth + 1);
        return;
      }
      case 8: {
        // Sequence: indented, or not indented under its key.
        int child = (!in_seq && pick(2) == 0) ? indent : indent + 2;
        out_ += trailing() + "\n";
        seq_block(child, depth + 1);
        return;
      }
      default:
        out_ +=
            " *" + anchors_[static_cast<size_t>(pick(static_cast<int>(anchors_.size())))] + "\n";
        return;
    }
  }

  void map_block(int indent, int depth) {
    int n = 1 + pick(4);
    for (int i = 0; i < n; ++i) {
      maybe_comment(indent);
      out_ += ind(indent) + key() + ":";
      value(indent, depth, false);
    }
  }

  void seq_block(int indent, int depth) {
    int n = 1 + pick(4);
    for (int i = 0; i < n; ++i) {
      maybe_comment(indent);
      out_ += ind(indent) + "-";
      if (depth < 4 && pick(8) == 0) {
        // `- - x`: a sequence in the entry, more entries at the inner dash's column.
        int child = indent + 2;
        out_ += " -";
        value(child, depth + 1, true);
        int more = pick(3);
        for (int k = 0; k < more; ++k) {
          out_ += ind(child) + "-";
          value(child, depth + 1, true);
        }
      } else if (depth < 4 && pick(4) == 0) {
        // `- key: v` with more keys under it.
        int child = indent + 2;
        out_ += " " + key() + ":";
        value(child, depth + 1, false);
        int more = pick(3);
        for (int k = 0; k < more; ++k) {
          out_ += ind(child) + key() + ":";
          value(child, depth + 1, false);
        }
      } else {
        value(indent, depth, true);
      }
    }
  }

  std::mt19937 rng_;
  std::string out_;
  std::vector<std::string> anchors_;
};

// The shapes yaml-cpp reads otherwise are looked for after a byte order mark that starts the
// text, which both drop: "&-b ~\n-\n" is one plain scalar to go-yaml and ytt ("~ -"), two
// documents to yaml-cpp, with or without the mark (found by fuzz/yaml_differential.cpp).
TEST(ReaderCrossCheck, ALeadingByteOrderMarkHidesNoShape) {
  EXPECT_TRUE(testing::yaml_cpp_reads_differently("&-b ~\n-\n"));
  EXPECT_TRUE(testing::yaml_cpp_reads_differently("\xEF\xBB\xBF&-b ~\n-\n"));
  EXPECT_EQ(cross_check("\xEF\xBB\xBF&-b ~\n-\n").difference, "");
}

TEST(ReaderCrossCheck, RandomDocuments) {
  Generator gen(20240611);
  Tally t;
  constexpr int kDocs = 3000;
  int shown = 0;
  for (int i = 0; i < kDocs; ++i) {
    std::string text = gen.document();
    Outcome o = cross_check(text);
    EXPECT_EQ(o.difference, "") << "input:\n" << text;
    if (!o.difference.empty() && ++shown > 10) break;
    t.add(o);
  }
  t.report("random documents");
  EXPECT_GT(t.checked, kDocs / 10);
}

}  // namespace
}  // namespace hintkit::yaml
