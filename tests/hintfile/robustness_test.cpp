// Mutated hint files never crash the loader, and every finding points into the file.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hintfile/hintfile.h"

namespace hintkit::hintfile {
namespace {

constexpr std::string_view kSeed =
    "apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n"
    "  host:\n    type: string\n    format: hostname\n    default: \"a.example\"\n"
    "  tags:\n    type: slice\n    required_without: [host]\n"
    "  labels: {type: map, description: \"x: y\"}\n"
    "rules:\n  - type: oneof_required\n    vars: [host, tags]\n    message: pick one\n";

TEST(Robustness, MutatedFilesGiveLocatedFindingsOrNone) {
  std::mt19937 rng(20261122);
  const std::string alphabet =
      ":-[]{}\"'#&*!|>?%@`,\n \t\x01\xff"
      "abc019";
  for (int round = 0; round < 3000; ++round) {
    std::string text(kSeed);
    const int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0:
          text.erase(at, 1);
          break;
        case 1:
          text.insert(text.begin() + static_cast<long>(at), c);
          break;
        default:
          text[at] = c;
          break;
      }
    }
    SCOPED_TRACE(text);
    diag::Diagnostics d;
    HintFile h = parse(text, "tazuna.hint.yaml", d);
    const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    for (const diag::Diagnostic& x : d.items()) {
      ASSERT_EQ(x.code.size(), 5u) << x.message;
      ASSERT_EQ(x.code.substr(0, 2), "HK") << x.message;
      ASSERT_FALSE(x.message.empty());
      ASSERT_GE(x.span.begin.line, 1) << x.message;
      ASSERT_LE(x.span.begin.line, lines + 1) << x.message;
    }
    // A file without errors always has its declared vars findable by name.
    if (!d.has_errors()) {
      for (const Var& v : h.vars) ASSERT_EQ(h.find(v.name), &v);
    }
  }
}

}  // namespace
}  // namespace hintkit::hintfile
