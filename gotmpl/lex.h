// Internal: the lexer of Go's text/template/parse (lex.go), run to completion up front: the
// parser reads the items from a vector. The item after an error item is never read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hintkit::gotmpl {

enum class ItemType {
  kError,
  kBool,
  kChar,
  kCharConstant,
  kComment,
  kComplex,
  kAssign,
  kDeclare,
  kEOF,
  kField,
  kIdentifier,
  kLeftDelim,
  kLeftParen,
  kNumber,
  kPipe,
  kRawString,
  kRightDelim,
  kRightParen,
  kString,
  kText,
  kVariable,
  // Keywords (Go's itemKeyword and after).
  kKeyword,
  kBlock,
  kBreak,
  kContinue,
  kDot,
  kDefine,
  kElse,
  kEnd,
  kIf,
  kNil,
  kRange,
  kTemplate,
  kWith,
};

// Go's lexer emits the spaces inside an action as items of their own; here they are a flag on
// the item that follows them (half of an action's items were spaces, and the parser only ever
// asks whether a space came before an item).
struct Item {
  ItemType type = ItemType::kEOF;
  bool space_before = false;
  size_t pos = 0;
  std::string_view val;  // the text (a view into the input), or the error message
};

// Go's item.String(): EOF, the error text, <keyword>, or the quoted value (cut at 10).
std::string to_string(const Item& item);

struct LexOptions {
  bool emit_comments = false;
  bool break_ok = true;     // no function named "break"
  bool continue_ok = true;  // no function named "continue"
};

// The items, and the message the error item's `val` views (lexing stops at the first error).
struct Lexed {
  std::vector<Item> items;
  std::string message;
};
void lex(std::string_view input, const LexOptions& options, Lexed& out);

bool is_space_char(char c);  // Go's isSpace: space, tab, CR, LF

}  // namespace hintkit::gotmpl
