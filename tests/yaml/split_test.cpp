// load_split: the same documents, positions and diagnostics as load, whether the stream was
// read in two halves or (for text that must not be cut) whole.
#include <gtest/gtest.h>

#include <string>

#include "yaml/internal.h"
#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

std::string pos(const diag::Span& s) {
  return std::to_string(s.begin.line) + ":" + std::to_string(s.begin.column) + "-" +
         std::to_string(s.end.line) + ":" + std::to_string(s.end.column);
}

// Everything a reader of the tree sees, positions included, one node a line.
void dump(const Node& n, std::string& out, int depth) {
  out += std::string(static_cast<size_t>(depth), ' ') + std::to_string(static_cast<int>(n.kind)) +
         "/" + std::to_string(static_cast<int>(n.style)) + " " + pos(n.span) + " item" +
         std::to_string(n.item_line) + " [" + n.text + "] " + std::to_string(n.int_value) + "\n";
  for (const auto& a : n.annotations) out += "@" + a.name + " " + pos(a.span) + "\n";
  for (const auto& it : n.items) {
    out += std::string(static_cast<size_t>(depth), ' ') + "item " + pos(it.span) + "\n";
    dump(it.key, out, depth + 1);
    dump(it.value, out, depth + 1);
  }
  for (const auto& el : n.elements) dump(el, out, depth + 1);
}

std::string dump(const std::vector<Document>& docs, const diag::Diagnostics& diags) {
  std::string out;
  for (const auto& d : docs) {
    out += "doc " + pos(d.span) + (d.empty ? " empty" : "") + "\n";
    dump(d.root, out, 1);
  }
  for (const auto& d : diags.items()) out += d.code + " " + pos(d.span) + " " + d.message + "\n";
  return out;
}

// Documents of a few shapes (maps, nested lists, block scalars, quoted strings), `n` of them.
std::string stream(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += i == 0 ? "" : "---\n";
    s += "kind: Thing\nmetadata:\n  name: thing-" + std::to_string(i) + "\n  labels:\n    a: '" +
         std::to_string(i) + "'\nspec:\n  replicas: " + std::to_string(i % 7) +
         "\n  items:\n  - name: x\n    value: \"v\\n" + std::to_string(i) +
         "\"\n  -\n    name: y\n  text: |\n    line one\n    line two\n";
  }
  return s;
}

void expect_same(const std::string& text, LoadOptions options = {}) {
  diag::Diagnostics whole_diags, split_diags;
  auto whole = load(text, "s.yaml", whole_diags, options);
  auto split = load_split(text, "s.yaml", split_diags, options);
  const std::string got = dump(split, split_diags), want = dump(whole, whole_diags);
  if (got == want) return;
  // The first line that differs (the dumps are too long for gtest to print whole).
  size_t at = 0;
  while (at < got.size() && at < want.size() && got[at] == want[at]) ++at;
  size_t from = want.rfind('\n', at == 0 ? 0 : at - 1);
  from = from == std::string::npos ? 0 : from + 1;
  ADD_FAILURE() << "split: " << got.substr(from, got.find('\n', at) - from)
                << "\nwhole: " << want.substr(from, want.find('\n', at) - from);
}

TEST(YamlLoadSplit, LongStreamReadsAsTheWholeDoes) {
  std::string text = stream(1500);
  ASSERT_GT(text.size(), size_t{64} << 10);
  // Cut at a document marker past the middle.
  const size_t cut = internal::split_offset(text);
  ASSERT_NE(cut, std::string::npos);
  EXPECT_GE(cut, text.size() / 2);
  EXPECT_EQ(text.substr(cut - 1, 5), "\n---\n");
  expect_same(text);
  expect_same(text, LoadOptions{.keep_comments = true, .keep_duplicate_keys = true});
  // The last line of the stream has no line end.
  text.pop_back();
  expect_same(text);
}

TEST(YamlLoadSplit, ShortStreamAndUncuttableText) {
  EXPECT_EQ(internal::split_offset(stream(3)), std::string::npos);
  expect_same(stream(3));
  // Anchors, comments and directives keep the text whole (an alias across the cut still
  // resolves).
  std::string anchored = "a: &x 1\n" + stream(1500) + "---\nb: *x\n";
  EXPECT_EQ(internal::split_offset(anchored), std::string::npos);
  expect_same(anchored);
  EXPECT_EQ(internal::split_offset("# note\n" + stream(1500)), std::string::npos);
  expect_same("# note\n" + stream(1500));
  EXPECT_EQ(internal::split_offset("%YAML 1.1\n---\n" + stream(1500)), std::string::npos);
}

TEST(YamlLoadSplit, ProblemsInEitherHalfAreReportedAsByTheWholeRead) {
  std::string text = stream(1500);
  // A repeated key at the very end (second half) and an error at the very start (first half).
  expect_same(text + "---\nk: 1\nk: 2\n", LoadOptions{.keep_duplicate_keys = true});
  expect_same(text + "---\nk: [1, 2\n");
  expect_same("k: [1, 2\n" + text);
  // An open quote that the cut would end: the whole read's error.
  std::string quoted = stream(700) + "---\nq: \"open\n" + stream(800) + "\"\n";
  expect_same(quoted);
  // A document marker in the middle of a literal block.
  expect_same(stream(700) + "---\nt: |\n  x\n---\n  y\n" + stream(800));
}

// `each_half` sees each half once, with the whole stream's positions, and may take the
// trees; `halves_used` says whether those halves were returned.
TEST(YamlLoadSplit, EachHalfIsHandedOverWithItsFinalPositions) {
  const std::string text = stream(1500);
  diag::Diagnostics whole_diags;
  const auto whole = load(text, "s.yaml", whole_diags);
  std::string seen[2];
  size_t counts[2] = {0, 0};
  auto take = [&](size_t half, std::vector<Document>& docs) {
    ASSERT_LT(half, size_t{2});
    counts[half] = docs.size();
    seen[half] = dump(docs, diag::Diagnostics{});
    for (auto& d : docs) d.root = Node{};  // consumed
  };
  diag::Diagnostics diags;
  bool used = false;
  auto split = load_split(text, "s.yaml", diags, {}, {}, take, &used);
  EXPECT_TRUE(used);
  ASSERT_EQ(split.size(), whole.size());
  ASSERT_EQ(counts[0] + counts[1], whole.size());
  ASSERT_GT(counts[1], size_t{0});
  const std::vector<Document> first(whole.begin(), whole.begin() + static_cast<long>(counts[0]));
  const std::vector<Document> second(whole.begin() + static_cast<long>(counts[0]), whole.end());
  EXPECT_EQ(seen[0], dump(first, diag::Diagnostics{}));
  EXPECT_EQ(seen[1], dump(second, diag::Diagnostics{}));
  EXPECT_TRUE(split.back().root.is_null());  // what the hook left

  // A problem in one half: the text is read again whole, and the halves are not used.
  diag::Diagnostics bad_diags;
  used = true;
  auto bad = load_split(text + "---\nk: 1\nk: 2\n", "s.yaml", bad_diags,
                        LoadOptions{.keep_duplicate_keys = true}, {}, take, &used);
  EXPECT_FALSE(used);
  EXPECT_FALSE(bad_diags.empty());
  EXPECT_FALSE(bad.back().root.is_null());

  // Text that is not cut: no half, not used.
  used = true;
  int calls = 0;
  auto short_text = load_split(
      stream(3), "s.yaml", diags, {}, {}, [&](size_t, std::vector<Document>&) { ++calls; }, &used);
  EXPECT_FALSE(used);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(short_text.size(), size_t{3});
}

}  // namespace
}  // namespace hintkit::yaml
