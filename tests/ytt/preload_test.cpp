// YamlPreloader: every file comes back loaded exactly as load_yaml would load it, whichever
// thread got to it first, in any order of asking; errors travel with the file.
#include "ytt/workspace/workspace.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

namespace hintkit::ytt {
namespace {

// The texts live as long as the test binary: inputs only view them, as they view the
// engine's SourceLines.
std::vector<YamlPreloader::Input> inputs(int n) {
  static std::vector<std::unique_ptr<std::string>> texts;
  std::vector<YamlPreloader::Input> out;
  for (int i = 0; i < n; ++i) {
    auto text = std::make_unique<std::string>();
    for (int k = 0; k < 200; ++k)
      *text += "k" + std::to_string(k) + ": " + std::to_string(i) + "\n";
    out.push_back({static_cast<size_t>(10 + i), "f" + std::to_string(i) + ".yaml", *text});
    texts.push_back(std::move(text));
  }
  return out;
}

// The value of key number `k` of a loaded file's first document (plain files arrive
// converted to engine nodes, LoadedYaml::roots).
int64_t int_at(const LoadedYaml& y, size_t k) {
  if (!y.roots.empty() && y.roots[0]) return y.roots[0]->entries.at(k).value->scalar.int_value;
  return y.docs.at(0).root.items.at(k).value.int_value;
}

TEST(YamlPreloader, EveryFileArrivesLoadedInOrder) {
  YamlPreloader p(inputs(5), /*strict=*/false);
  for (int i = 0; i < 5; ++i) {
    auto got = p.take(10 + i);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->path, "f" + std::to_string(i) + ".yaml");
    ASSERT_EQ(got->docs.size(), 1u);
    ASSERT_EQ(got->roots.size(), 1u);
    ASSERT_TRUE(got->roots[0]);
    ASSERT_EQ(got->roots[0]->entries.size(), 200u);
    EXPECT_EQ(int_at(*got, 7), i);
    EXPECT_TRUE(got->diags.empty());
  }
}

// Only a file that templating would take as it is arrives converted; the YAML tree of any
// other stays for the template compiler.
TEST(LoadYaml, ConvertsOnlyFilesWithNothingBelowTheirDocumentsToTemplate) {
  struct Case {
    std::string_view text;
    bool converted;
  };
  const Case cases[] = {
      {"#@data/values\n---\na: 1\nb: [x, y]\n", true},
      {"a: 1\n---\nb: 2\n", true},
      {"#@data/values-schema\n---\n#@schema/nullable\na: 1\n", false},  // a node annotated
      {"#@data/values\n---\na: 1  # a comment\n", false},               // a plain comment
      {"#@data/values\n---\na: \"#@x\"\n", false},  // '#@' the documents do not account for
      {"#@data/values after_library_module=True\n---\na: 1\n", false},  // arguments
      {"#@ x = 1\n---\na: 1\n", false},                                 // code
      {"a: 1\na: 2\n", false},                                          // a repeated key
      {"a: [1\n", false},                                               // a syntax error
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    LoadedYaml y = load_yaml("f.yaml", c.text);
    const bool converted = !y.roots.empty() && y.roots[0] != nullptr;
    EXPECT_EQ(converted, c.converted);
    if (!converted) continue;
    EXPECT_TRUE(y.docs[0].root.items.empty());         // the YAML tree is gone...
    EXPECT_EQ(y.docs[0].root.kind, yaml::Kind::kMap);  // ...but not its kind and place
    EXPECT_EQ(y.docs[0].root.span.begin.line, y.roots[0]->span.begin.line);
    EXPECT_EQ(y.roots[0]->entries[0].key.text, "a");
  }
}

// A long plain stream read in halves is converted on the threads that read it: the same roots
// (values and positions), flags and documents as the whole read.
TEST(LoadYaml, HalvesConvertAsTheWholeReadDoes) {
  auto stream = [](std::string_view tail) {
    std::string s;
    for (int i = 0; i < 1500; ++i) {
      s += (i ? "---\n" : "") + std::string("kind: Service\nmetadata:\n  name: app-") +
           std::to_string(i) + "\nspec:\n  ports:\n  - port: " + std::to_string(i) +
           "\n    tags: [a, b]\n";
    }
    return s + std::string(tail);
  };
  // The last document's key is a flow list: found in the second half.
  for (const std::string& text : {stream(""), stream("---\n[a, b]: c\n")}) {
    ASSERT_GT(text.size(), size_t{64} << 10);
    int ended = 0;
    LoadedYaml split = load_yaml("f.yaml", text, false, /*split=*/true, [&] { ++ended; });
    LoadedYaml whole = load_yaml("f.yaml", text);
    EXPECT_EQ(ended, 1);  // the text was read on two threads
    ASSERT_EQ(split.docs.size(), whole.docs.size());
    ASSERT_EQ(split.roots.size(), whole.roots.size());
    EXPECT_EQ(split.has_collection_key, whole.has_collection_key);
    EXPECT_EQ(split.has_array_key, whole.has_array_key);
    EXPECT_TRUE(split.diags.empty());
    for (size_t i = 0; i < whole.roots.size(); ++i) {
      SCOPED_TRACE(i);
      ASSERT_EQ(split.roots[i] != nullptr, whole.roots[i] != nullptr);
      EXPECT_EQ(split.docs[i].span.begin.line, whole.docs[i].span.begin.line);
      EXPECT_EQ(split.docs[i].root.kind, whole.docs[i].root.kind);
      if (!whole.roots[i]) continue;
      EXPECT_EQ(emit_yaml(*split.roots[i]), emit_yaml(*whole.roots[i]));
      const DNode& a = *split.roots[i]->entries.back().value;
      const DNode& b = *whole.roots[i]->entries.back().value;
      EXPECT_EQ(a.span.begin.line, b.span.begin.line);
      EXPECT_EQ(split.roots[i]->entries.back().span.begin.line,
                whole.roots[i]->entries.back().span.begin.line);
    }
  }
  EXPECT_TRUE(load_yaml("f.yaml", stream("---\n[a, b]: c\n"), false, true).has_array_key);
}

TEST(YamlPreloader, OutOfOrderUnknownAndRepeatedRequests) {
  YamlPreloader p(inputs(4), /*strict=*/false);
  auto last = p.take(13);  // ahead of the worker: loaded here
  ASSERT_TRUE(last.has_value());
  EXPECT_EQ(int_at(*last, 0), 3);
  EXPECT_FALSE(p.take(99).has_value());  // not in the order
  EXPECT_FALSE(p.take(13).has_value());  // already taken
  for (size_t i : {10u, 11u, 12u}) {
    auto got = p.take(i);
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(int_at(*got, 0), static_cast<int64_t>(i - 10));
  }
}

TEST(YamlPreloader, SyntaxErrorsStayWithTheirFile) {
  auto in = inputs(2);
  in[1].text = "a: [1, 2\n";
  YamlPreloader p(std::move(in), /*strict=*/false);
  EXPECT_TRUE(p.take(10)->diags.empty());
  auto bad = p.take(11);
  ASSERT_TRUE(bad.has_value());
  ASSERT_FALSE(bad->diags.empty());
  EXPECT_EQ(bad->diags.items()[0].code, "HK001");
}

TEST(YamlPreloader, StrictReadsEveryFileStrictlyOnEitherThread) {
  auto in = inputs(3);
  in[1].text = "a: yes\n";
  in[2].text = "b: 0x1F\n";
  YamlPreloader p(std::move(in), /*strict=*/true);
  EXPECT_TRUE(p.take(10)->diags.empty());  // decimals are strict YAML
  for (size_t i : {11u, 12u}) {
    auto got = p.take(i);
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->diags.size(), 1u);
    EXPECT_EQ(yaml::error_kind(got->diags.items()[0]), yaml::ErrorKind::kStrictScalar);
  }
}

TEST(YamlPreloader, TellsWhenTheWorkerHasEnded) {
  int calls = 0;
  std::thread::id caller;
  YamlPreloader p(inputs(3), /*strict=*/false, [&] {
    ++calls;
    caller = std::this_thread::get_id();
  });
  EXPECT_TRUE(p.take(10).has_value());
  EXPECT_TRUE(p.take(11).has_value());
  EXPECT_EQ(calls, 0);  // one file is still to come
  EXPECT_TRUE(p.take(12).has_value());
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(caller, std::this_thread::get_id());
  EXPECT_FALSE(p.take(12).has_value());
  EXPECT_EQ(calls, 1);
}

TEST(YamlPreloader, SmallFilesAfterTheFirstLoadWithoutAWorker) {
  // Three files of about 2 KB: 4 KB after the first. Under the threshold no worker starts
  // (so none ends to be reported); at or over it, one does.
  for (size_t min_bytes : {size_t{1} << 20, size_t{64}}) {
    SCOPED_TRACE(min_bytes);
    int done = 0;
    YamlPreloader p(
        inputs(3), /*strict=*/false, [&] { ++done; }, min_bytes);
    for (int i = 0; i < 3; ++i) {
      auto got = p.take(10 + i);
      ASSERT_TRUE(got.has_value());
      EXPECT_EQ(int_at(*got, 7), i);
    }
    EXPECT_EQ(done, min_bytes == 64 ? 1 : 0);
  }
}

TEST(YamlPreloader, StopsWithoutBeingAsked) {
  // Destroyed before every file is taken (the pipeline failed early): the destructor stops and
  // joins the worker itself, and the owner is not told that the files were all taken.
  for (int taken = 0; taken < 3; ++taken) {
    SCOPED_TRACE(taken);
    int done = 0;
    {
      YamlPreloader p(inputs(3), /*strict=*/false, [&] { ++done; });
      for (int i = 0; i < taken; ++i) ASSERT_TRUE(p.take(10 + i).has_value());
    }
    EXPECT_EQ(done, 0);
  }
  // Taking the last file ends the worker and tells the owner once.
  int done = 0;
  {
    YamlPreloader p(inputs(3), /*strict=*/false, [&] { ++done; });
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(p.take(10 + i).has_value());
    EXPECT_EQ(done, 1);
  }
  EXPECT_EQ(done, 1);
}

}  // namespace
}  // namespace hintkit::ytt
