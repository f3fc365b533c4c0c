// ytt's FilePositionPrinter (`-o pos`): each node on its own line after the place it came
// from, right-aligned in a column that only widens.
#include <cstdint>
#include <functional>

#include "gocompat/gocompat.h"
#include "ytt/yamlmeta/yamlmeta.h"

namespace hintkit::ytt {

namespace {

// Go's fmt verbs take no width beyond this (fmt's tooLarge): a longer number ends the format.
constexpr int kMaxGoFormatNumber = 1'000'000;

size_t rune_count(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += gocompat::decode_rune(s, i).width) ++n;
  return n;
}

// Go's fmt parsenum.
bool parse_go_number(std::string_view s, size_t& i, size_t end) {
  if (i >= end) return false;
  bool is_num = false;
  int num = 0;
  for (; i < end && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (num > kMaxGoFormatNumber) {
      i = end;
      return false;
    }
    num = num * 10 + (s[i] - '0');
    is_num = true;
  }
  return is_num;
}

// Go's fmt argNumber with no arguments: `[n]` is skipped (and always a bad index);
// `found` says an index was read.
void skip_arg_number(std::string_view s, size_t& i, bool& found, bool& good) {
  found = false;
  if (i >= s.size() || s[i] != '[') return;
  good = false;  // no argument to index
  if (s.size() - i < 3) {
    i += 1;
    return;
  }
  for (size_t k = i + 1; k < s.size(); ++k) {
    if (s[k] == ']') {
      size_t at = i + 1;
      const bool ok = parse_go_number(s, at, k) && at == k;
      i = k + 1;
      found = ok;
      return;
    }
  }
  i += 1;
}

// Go's fmt.Sprintf(format) with no arguments: ytt's printer hands a scalar's text to Fprintf as
// its format, so a `%` in it becomes a verb missing its operand (`%!d(MISSING)`).
std::string go_printf_without_args(std::string_view f) {
  std::string out;
  const size_t end = f.size();
  for (size_t i = 0; i < end;) {
    const size_t from = i;
    while (i < end && f[i] != '%') ++i;
    out.append(f.substr(from, i - from));
    if (i >= end) break;
    ++i;
    while (i < end && (f[i] == '#' || f[i] == '0' || f[i] == '+' || f[i] == '-' || f[i] == ' '))
      ++i;
    bool good = true, after_index = false;
    skip_arg_number(f, i, after_index, good);
    if (i < end && f[i] == '*') {
      ++i;
      out += "%!(BADWIDTH)";
      after_index = false;
    } else {
      if (parse_go_number(f, i, end) && after_index) good = false;
    }
    if (i + 1 < end && f[i] == '.') {
      ++i;
      if (after_index) good = false;
      skip_arg_number(f, i, after_index, good);
      if (i < end && f[i] == '*') {
        ++i;
        out += "%!(BADPREC)";
        after_index = false;
      } else {
        (void)parse_go_number(f, i, end);
      }
    }
    if (!after_index) skip_arg_number(f, i, after_index, good);
    if (i >= end) {
      out += "%!(NOVERB)";
      break;
    }
    const size_t w = gocompat::decode_rune(f, i).width;
    // An invalid byte reads as Go's RuneError, written back as U+FFFD.
    const std::string verb = w == 1 && static_cast<unsigned char>(f[i]) >= 0x80
                                 ? "\xEF\xBF\xBD"
                                 : std::string(f.substr(i, w));
    i += w;
    if (verb == "%") {
      out += '%';
    } else {
      out += "%!" + verb + (good ? "(MISSING)" : "(BADINDEX)");
    }
  }
  return out;
}

class PositionPrinter {
 public:
  explicit PositionPrinter(const PlaceName& place) : place_(place) {}

  void document(const DDoc& d, std::string& out) {
    out += line_str(d.span) + "[doc]\n";
    if (d.value) value(*d.value, "  ", out);
  }

 private:
  // filepos.Position.AsCompactString, or nothing for an unknown place.
  std::string line_str(const diag::Span& s) {
    if (s.begin.line <= 0) return "";
    return pad_line(place_(s));
  }

  // `%*s | `: the column widens (by ten more) when a place does not fit; Go pads by runes.
  std::string pad_line(std::string_view place) {
    if (place.size() > width_) width_ = place.size() + 10;
    const size_t runes = rune_count(place);
    return std::string(width_ > runes ? width_ - runes : 0, ' ') + std::string(place) + " | ";
  }

  // A map ytt holds as Go data (made by Starlark): go-yaml's Marshal panics on it.
  static bool holds_go_map(const DNode& n) {
    if (n.is_map()) return true;
    for (const auto& e : n.entries)
      if (e.value && holds_go_map(*e.value)) return true;
    return false;
  }

  // ytt's leafValue: a scalar, or an array ytt holds as Go data (made by Starlark), as
  // yaml.Marshal writes it, without the last line break.
  static std::optional<std::string> leaf(const DNode& n) {
    if (n.from_code && !n.is_scalar() && holds_go_map(n)) {
      throw Unsupported{"-o pos of a map made by Starlark (ytt panics)"};
    }
    if (!n.is_scalar() && !n.from_code) return std::nullopt;
    std::string text = emit_yaml(n);
    if (!text.empty() && text.back() == '\n') text.pop_back();
    return text;
  }

  void value(const DNode& n, const std::string& indent, std::string& out) {
    if ((n.is_map() || n.is_array()) && !n.from_code) {
      for (size_t i = 0; i < n.entries.size(); ++i) {
        const DEntry& e = n.entries[i];
        const std::string name = n.is_map() ? go_key_text(e.key) : "[" + std::to_string(i) + "]";
        const std::string sep = n.is_map() ? ":" : "";
        auto text = e.value ? leaf(*e.value) : std::optional<std::string>("null");
        if (!text || text->find('\n') != std::string::npos) {
          out += line_str(e.span) + indent + name + sep + "\n";
          if (e.value) value(*e.value, indent + "  ", out);
        } else {
          out += line_str(e.span) + indent + name + sep + " " + *text + "\n";
        }
      }
      return;
    }
    out += go_printf_without_args(pad_line("") + indent + *leaf(n) + "\n");
  }

  const PlaceName& place_;
  size_t width_ = 0;
};

}  // namespace

std::string print_positions(const std::vector<const DDoc*>& docs, const PlaceName& place) {
  PositionPrinter printer(place);
  std::string out;
  for (const DDoc* d : docs) printer.document(*d, out);
  return out;
}

}  // namespace hintkit::ytt
