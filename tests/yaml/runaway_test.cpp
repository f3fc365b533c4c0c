// Inputs that send yaml-cpp 0.7 into an endless, allocating loop get a syntax error at once.
#include <gtest/gtest.h>

#include "yaml/yaml.h"

namespace hintkit::yaml {
namespace {

TEST(Runaway, StrayFlowEntryIsASyntaxErrorNotAHang) {
  struct Case {
    std::string_view input;
    int line;
  };
  const Case cases[] = {{",a: 1\n", 1}, {"- a\n, b\n", 2}, {"---\n,x\n", 2}, {",\n", 1}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    diag::Diagnostics d;
    (void)load(c.input, "x.yaml", d);
    ASSERT_EQ(d.size(), 1u);
    EXPECT_EQ(d.items()[0].code, "HK001");
    EXPECT_EQ(d.items()[0].span.begin.line, c.line);
  }
}

}  // namespace
}  // namespace hintkit::yaml
