// Tokens of ytt's Starlark dialect. `scan()` reads the whole source and applies ytt's block
// rules: indentation is ignored, a `:` at the end of a line opens a block, `end` closes it,
// `elif`/`else:` close the previous branch, and `pass` is reserved. Scan errors become a
// final `kError` token so the parser reports problems in source order. Internal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "starlark/ast.h"

namespace hintkit::starlark {

enum class Tok : uint8_t {
  kError,
  kEof,
  kNewline,
  kIndent,
  kOutdent,
  kIdent,
  kInt,
  kFloat,
  kString,
  kIllegal,
  // punctuation
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kSlashSlash,
  kPercent,
  kAmp,
  kPipe,
  kCaret,
  kShl,
  kShr,
  kTilde,
  kDot,
  kComma,
  kEq,
  kSemi,
  kColon,
  kLParen,
  kRParen,
  kLBrack,
  kRBrack,
  kLBrace,
  kRBrace,
  kLt,
  kGt,
  kGe,
  kLe,
  kEqEq,
  kNe,
  kPlusEq,
  kMinusEq,
  kStarEq,
  kSlashEq,
  kSlashSlashEq,
  kPercentEq,
  kAmpEq,
  kPipeEq,
  kCaretEq,
  kShlEq,
  kShrEq,
  kStarStar,
  // keywords
  kAnd,
  kBreak,
  kContinue,
  kDef,
  kElif,
  kElse,
  kFor,
  kIf,
  kIn,
  kLambda,
  kLoad,
  kNot,
  kOr,
  kPass,
  kReturn,
  kWhile,
};

// How the parser names a token in "got X, want Y": punctuation quoted ('**'), others by name.
std::string describe(Tok t);

struct Token {
  Tok kind = Tok::kEof;
  Pos pos;
  // Where starlark-go's scanner stands once the parser holds this token: past the token and
  // whatever ytt's block scanner read ahead (the newline after `end`, the colon after `else`).
  // Most of its syntax errors are reported there, not at the token.
  Pos scan_end;
  std::string text;  // identifier name, decoded string, or error message
  Value literal;     // int / float value
};

std::vector<Token> scan(std::string_view source);

}  // namespace hintkit::starlark
