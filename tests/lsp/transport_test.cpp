// LSP framing and position conversions.
#include "lsp/transport.h"

#include <gtest/gtest.h>

#include "lsp/positions.h"

namespace hintkit::lsp {
namespace {

TEST(Framer, SplitJoinedAndBrokenInput) {
  struct Case {
    std::vector<std::string> chunks;
    std::vector<std::string> want;
    bool error;
  };
  const std::string a = frame("{\"a\":1}"), b = frame("{}");
  const std::vector<Case> cases = {
      {{a}, {"{\"a\":1}"}, false},
      {{a.substr(0, 5), a.substr(5)}, {"{\"a\":1}"}, false},
      {{a + b}, {"{\"a\":1}", "{}"}, false},
      {{"Content-Type: x\r\n\r\n" + b}, {"{}"}, true},
      {{"content-length: 2\r\nContent-Type: utf-8\r\n\r\n{}"}, {"{}"}, false},
      {{"Content-Length: x2\r\n\r\n" + a}, {"{\"a\":1}"}, true},
      {{"Content-Length: 99999999999\r\n\r\n" + b}, {}, true},
      {{a.substr(0, a.size() - 1)}, {}, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.chunks.front());
    Framer f;
    std::vector<std::string> got;
    for (const auto& chunk : c.chunks) {
      f.feed(chunk);
      while (auto body = f.next()) got.push_back(*body);
    }
    EXPECT_EQ(got, c.want);
    EXPECT_EQ(f.take_error().has_value(), c.error);
  }
}

TEST(LineIndex, ByteColumnsToUtf16) {
  const std::string text = "ab\n\xc3\xa9x\n\xf0\x9f\x98\x80y\r\nlast";
  LineIndex index(text);
  EXPECT_EQ(index.line_count(), 4);
  EXPECT_EQ(index.line(2), "\xf0\x9f\x98\x80y");  // the \r is not part of the line
  EXPECT_EQ(index.utf16_column(1, 3), 2);
  EXPECT_EQ(index.utf16_column(2, 3), 1);   // é is 2 bytes, 1 UTF-16 unit
  EXPECT_EQ(index.utf16_column(3, 5), 2);   // 😀 is 4 bytes, 2 UTF-16 units
  EXPECT_EQ(index.utf16_column(3, 99), 3);  // clamped to the line
  EXPECT_EQ(index.offset(1, 1), 3u + 2u);   // after é
  EXPECT_EQ(index.offset(2, 2), 7u + 4u);   // after 😀
  EXPECT_EQ(index.offset(9, 0), text.size());
}

// The protocol ends lines at LF, CR LF and CR.
TEST(LineIndex, ACarriageReturnWithoutLineFeedEndsALine) {
  const std::string text = "a\rb\r\nc\r\rd\r";
  LineIndex index(text);
  ASSERT_EQ(index.line_count(), 6);
  EXPECT_EQ(index.line(0), "a");
  EXPECT_EQ(index.line(1), "b");
  EXPECT_EQ(index.line(2), "c");
  EXPECT_EQ(index.line(3), "");
  EXPECT_EQ(index.line(4), "d");
  EXPECT_EQ(index.line(5), "");
  EXPECT_EQ(index.offset(4, 1), 9u);
}

}  // namespace
}  // namespace hintkit::lsp
