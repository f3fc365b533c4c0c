// datetime: RFC 3339 date-times with the strictness of Go's RFC 3339 fast path
// (time.parseRFC3339, the parser behind time.Time's JSON and text decoding):
//   YYYY-MM-DD "T" hh:mm:ss ["." 1*digit] ("Z" / ("+" / "-") hh:mm)
// Every field has its exact width; the date must exist (leap years included); hour <= 23,
// minute and second <= 59 (no leap second 60); offset hour <= 23, minute <= 59. Only upper-case
// 'T' and 'Z' are accepted, as Go does, although RFC 3339 itself permits lower case.
//
// time.Parse(time.RFC3339, s) falls back to its general layout parser when the fast path fails,
// and that parser is laxer: it takes "T9:30:00" (one-digit hour), ",5" fractions and "+24:00".
// Those are refused here on purpose.
#include <cstddef>
#include <string>

#include "formats/checkers.h"

namespace hintkit::formats::detail {
namespace {

bool is_leap_year(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int days_in_month(int year, int month) {
  constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month == 2 && is_leap_year(year)) return 29;
  return kDays[month - 1];
}

// Reads a fixed-width decimal field and steps over it.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  size_t pos() const { return pos_; }
  std::string_view rest() const { return text_.substr(pos_); }
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void skip(size_t n) { pos_ += n; }

  // Exactly `width` digits at the cursor; `name` is "year", "month", ... for the reason.
  Reason number(size_t width, std::string_view name, int& out) {
    size_t digits = 0;
    while (digits < width && pos_ + digits < text_.size() && is_digit(text_[pos_ + digits])) {
      ++digits;
    }
    if (digits == 0 && at_end()) return "missing " + std::string(name);
    if (digits < width) {
      return std::string(name) + " must have " + (width == 4 ? "four" : "two") + " digits";
    }
    out = 0;
    for (size_t i = 0; i < width; ++i) out = out * 10 + (text_[pos_ + i] - '0');
    pos_ += width;
    return std::nullopt;
  }

  // The separator `want` at the cursor, coming after the field `after`.
  Reason separator(char want, std::string_view after) {
    const std::string want_quoted = quote_char(want);
    if (at_end()) return "missing " + want_quoted + " after the " + std::string(after);
    if (text_[pos_] != want) {
      return "expected " + want_quoted + " after the " + std::string(after) + ", found " +
             quote_char(text_[pos_]);
    }
    ++pos_;
    return std::nullopt;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::string two_digits(int value) {
  return std::string(1, static_cast<char>('0' + value / 10)) + static_cast<char>('0' + value % 10);
}

Reason check_offset(std::string_view zone) {
  Cursor cursor(zone);
  cursor.skip(1);  // the sign
  int hours = 0;
  int minutes = 0;
  if (auto reason = cursor.number(2, "offset hour", hours)) return reason;
  if (auto reason = cursor.separator(':', "offset hour")) return reason;
  if (auto reason = cursor.number(2, "offset minute", minutes)) return reason;
  if (!cursor.at_end()) return "unexpected text " + quote(cursor.rest()) + " after the offset";
  if (hours > 23) return "offset hour " + two_digits(hours) + " is out of range (00-23)";
  if (minutes > 59) return "offset minute " + two_digits(minutes) + " is out of range (00-59)";
  return std::nullopt;
}

Reason check_zone(std::string_view zone) {
  if (zone.empty()) return "missing time zone ('Z' or +hh:mm / -hh:mm)";
  switch (zone[0]) {
    case 'Z':
      if (zone.size() == 1) return std::nullopt;
      return "unexpected text " + quote(zone.substr(1)) + " after 'Z'";
    case 'z':
      return "lower-case 'z' is not accepted, use 'Z'";
    case '+':
    case '-':
      return check_offset(zone);
    case ',':
      return "fractional seconds must follow '.', not ','";
    case '.':
      return "missing digits after '.'";
    default:
      return "expected time zone 'Z' or +hh:mm / -hh:mm, found " + quote(zone);
  }
}

}  // namespace

Reason check_datetime(std::string_view value) {
  if (value.empty()) return "datetime is empty";
  Cursor cursor(value);
  int year = 0;
  int month = 0;
  int day = 0;
  int hour = 0;
  int minute = 0;
  int second = 0;

  if (auto reason = cursor.number(4, "year", year)) return reason;
  if (auto reason = cursor.separator('-', "year")) return reason;
  if (auto reason = cursor.number(2, "month", month)) return reason;
  if (month < 1 || month > 12) return "month " + two_digits(month) + " is out of range (01-12)";
  if (auto reason = cursor.separator('-', "month")) return reason;
  if (auto reason = cursor.number(2, "day", day)) return reason;
  if (day < 1 || day > days_in_month(year, month)) {
    return "day " + two_digits(day) + " is out of range for " + std::string(value.substr(0, 7)) +
           " (" + std::to_string(days_in_month(year, month)) + " days)";
  }
  if (cursor.peek() == 't') return "lower-case 't' is not accepted, use 'T'";
  if (auto reason = cursor.separator('T', "date")) return reason;
  if (auto reason = cursor.number(2, "hour", hour)) return reason;
  if (auto reason = cursor.separator(':', "hour")) return reason;
  if (auto reason = cursor.number(2, "minute", minute)) return reason;
  if (auto reason = cursor.separator(':', "minute")) return reason;
  if (auto reason = cursor.number(2, "second", second)) return reason;
  if (hour > 23) return "hour " + two_digits(hour) + " is out of range (00-23)";
  if (minute > 59) return "minute " + two_digits(minute) + " is out of range (00-59)";
  if (second > 59) return "second " + two_digits(second) + " is out of range (00-59)";

  if (cursor.peek() == '.' && cursor.rest().size() >= 2 && is_digit(cursor.rest()[1])) {
    cursor.skip(1);
    while (!cursor.at_end() && is_digit(cursor.peek())) cursor.skip(1);
  }
  return check_zone(cursor.rest());
}

}  // namespace hintkit::formats::detail
