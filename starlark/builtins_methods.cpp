// Methods of the built-in types: string, list, dict and set (ytt's dialect has exactly the
// methods listed in the tables at the bottom of this file).
#include <algorithm>
#include <cctype>

#include "gocompat/gocompat.h"
#include "starlark/builtins.h"
#include "starlark/format.h"
#include "starlark/runes.h"

namespace hintkit::starlark {

namespace {

// starlark-go's updateDict: a mapping's items, or an iterable of pairs; then the keywords.
// Errors carry no prefix; dict() and dict.update() add theirs.
void dict_update(const Value& d, std::span<const Value> args, std::span<const Kwarg> kwargs) {
  HashTable& t = as_dict(d)->table;
  if (args.size() == 1) {
    const Value& src = args[0];
    if (src.kind() == Kind::kDict) {
      std::vector<std::pair<Value, Value>> items;
      for (const auto& e : as_dict(src)->table.entries()) {
        if (e.live) items.emplace_back(e.key, e.value);
      }
      for (const auto& [k, v] : items) t.insert(k, v);
    } else if (is_ytt_struct(src)) {  // ytt's StarlarkStruct is an IterableMapping
      std::vector<std::pair<std::string, Value>> fields = struct_fields(src);
      for (const auto& [k, v] : fields) t.insert(Value::from_string(k), v);
    } else if (src.kind() == Kind::kHost && [&] {
                 auto pairs = static_cast<const HostObject*>(src.object())->mapping_items();
                 if (!pairs.ok() && pairs.error().go_panic) throw_go_panic(pairs.error().message);
                 if (!pairs.ok()) throw_error(pairs.error().message);
                 if (!*pairs) return false;
                 for (const auto& [k, v] : **pairs) t.insert(k, v);
                 return true;
               }()) {
      // a host mapping (ytt's yamlfragment): its items
    } else {
      if (!is_iterable(src)) throw_error("got " + std::string(src.type_name()) + ", want iterable");
      Iter it(src);
      Value pair;
      for (int64_t i = 0; it.next(pair); ++i) {
        if (!is_iterable(pair)) {
          throw_error("dictionary update sequence element #" + std::to_string(i) +
                      " is not iterable (" + std::string(pair.type_name()) + ")");
        }
        int64_t n = length_of(pair);
        if (n < 0) {
          throw_error("dictionary update sequence element #" + std::to_string(i) +
                      " has unknown length (" + std::string(pair.type_name()) + ")");
        }
        if (n != 2) {
          throw_error("dictionary update sequence element #" + std::to_string(i) + " has length " +
                      std::to_string(n) + ", want 2");
        }
        std::vector<Value> kv = to_vector(pair);
        t.insert(kv[0], kv[1]);
      }
    }
  }
  for (const auto& kw : kwargs) t.insert(Value::from_string(kw.name), kw.value);
}

}  // namespace

// Shared with dict.update: "update: got 2 arguments, want at most 1", "update: <error>".
void dict_update_from(const Call& c, const Value& d) {
  if (c.args.size() > 1)
    bfail(c, "got " + std::to_string(c.args.size()) + " arguments, want at most 1");
  try {
    dict_update(d, c.args, c.kwargs);
  } catch (EvalError& e) {
    if (e.kind == ErrorKind::kLimit || e.bare) throw;
    bfail(c, e.message);
  }
}

namespace {

const std::string& recv_str(const Call& c) { return str_ref(*c.receiver); }

// ---- String methods --------------------------------------------------------------------------

// starlark-go's indices(): optional start/end arguments (None or absent = the default),
// negative ones counted from the end, both clamped to [0, len]. Errors carry the method name:
// "find: invalid start index: got string, want int".
void indices(const Call& c, const Value& start_v, const Value& end_v, size_t n, size_t* lo,
             size_t* hi) {
  int64_t len = static_cast<int64_t>(n);
  auto get = [&](const Value& v, int64_t dflt, std::string_view which) -> int64_t {
    if (!given(v) || v.is_none()) return dflt;
    if (!conversion_error(v, Want::kInt32).empty())
      bfail(c, "invalid " + std::string(which) + " index: got " + std::string(v.type_name()) +
                   ", want int");
    int64_t i = small_int(v);
    if (i < 0) i += len;
    return std::clamp<int64_t>(i, 0, len);
  };
  int64_t a = get(start_v, 0, "start");
  int64_t b = get(end_v, len, "end");
  *lo = static_cast<size_t>(a);
  *hi = static_cast<size_t>(std::max(a, b));
}

size_t count_runes(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); i += gocompat::decode_rune(s, i).width) ++n;
  return n;
}

Value str_find_impl(const Call& c, bool reverse, bool must) {
  Value sub_v, start, end;
  unpack_positional(c, 1, {{"sub", &sub_v, Want::kString}, {"start", &start}, {"end", &end}});
  const std::string& s = recv_str(c);
  const std::string& sub = str_ref(sub_v);
  size_t lo, hi;
  indices(c, start, end, s.size(), &lo, &hi);
  std::string_view window = std::string_view(s).substr(lo, hi - lo);
  size_t p = reverse ? window.rfind(sub) : window.find(sub);
  if (p == std::string_view::npos) {
    if (must) bfail(c, "substring not found");
    return Value::from_int(-1);
  }
  return Value::from_int(static_cast<int64_t>(lo + p));
}

Value s_find(const Call& c) { return str_find_impl(c, false, false); }
Value s_rfind(const Call& c) { return str_find_impl(c, true, false); }
Value s_index(const Call& c) { return str_find_impl(c, false, true); }
Value s_rindex(const Call& c) { return str_find_impl(c, true, true); }

Value s_count(const Call& c) {
  Value sub_v, start, end;
  unpack_positional(c, 1, {{"sub", &sub_v, Want::kString}, {"start", &start}, {"end", &end}});
  const std::string& s = recv_str(c);
  const std::string& sub = str_ref(sub_v);
  size_t lo, hi;
  indices(c, start, end, s.size(), &lo, &hi);
  std::string_view w = std::string_view(s).substr(lo, hi - lo);
  // Go's strings.Count: an empty substring matches before every code point and at the end.
  if (sub.empty()) return Value::from_int(static_cast<int64_t>(count_runes(w) + 1));
  int64_t n = 0;
  for (size_t p = w.find(sub); p != std::string_view::npos; p = w.find(sub, p + sub.size())) ++n;
  return Value::from_int(n);
}

Value starts_ends(const Call& c, bool ends) {
  Value x, start, end;
  unpack_positional(c, 1, {{"x", &x}, {"start", &start}, {"end", &end}});
  const std::string& s = recv_str(c);
  size_t lo, hi;
  indices(c, start, end, s.size(), &lo, &hi);
  std::string_view w = std::string_view(s).substr(lo, hi - lo);
  auto test = [&](std::string_view t) { return ends ? w.ends_with(t) : w.starts_with(t); };
  if (x.kind() == Kind::kTuple) {
    const auto& items = as_tuple(x)->items;
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind() != Kind::kString)
        bfail(c, "want string, got " + std::string(items[i].type_name()) + ", for element " +
                     std::to_string(i));
      if (test(str_ref(items[i]))) return Value::from_bool(true);
    }
    return Value::from_bool(false);
  }
  if (x.kind() != Kind::kString)
    bfail(c, "got " + std::string(x.type_name()) + ", want string or tuple of string");
  return Value::from_bool(test(str_ref(x)));
}
Value s_startswith(const Call& c) { return starts_ends(c, false); }
Value s_endswith(const Call& c) { return starts_ends(c, true); }

// Go's strings.Trim/TrimSpace family: code points in `chars` (Unicode spaces when empty).
Value strip_impl(const Call& c, bool left, bool right) {
  Value chars_v;
  unpack_positional(c, 0, {{"chars", &chars_v, Want::kString}});
  const std::string& s = recv_str(c);
  std::string chars = c.args.empty() ? std::string() : str_ref(chars_v);
  std::vector<uint32_t> set;
  for (size_t i = 0; i < chars.size();) {
    gocompat::Rune r = gocompat::decode_rune(chars, i);
    set.push_back(r.cp);
    i += r.width;
  }
  auto strip_me = [&](uint32_t cp) {
    return chars.empty() ? gocompat::is_space(cp)
                         : std::find(set.begin(), set.end(), cp) != set.end();
  };
  // Decoded from each end inward (as Go's TrimLeftFunc, then TrimRightFunc on what is left),
  // never the whole string: a table of its runes took 24 bytes per byte.
  size_t from = 0, to = s.size();
  if (left) {
    while (from < to) {
      gocompat::Rune r = gocompat::decode_rune(s, from);
      if (!strip_me(r.cp)) break;
      from += r.width;
    }
  }
  if (right) {
    while (to > from) {
      gocompat::Rune r = gocompat::decode_last_rune(std::string_view(s).substr(from, to - from));
      if (!strip_me(r.cp)) break;
      to -= r.width;
    }
  }
  return str_value(s.substr(from, to - from));
}
Value s_strip(const Call& c) { return strip_impl(c, true, true); }
Value s_lstrip(const Call& c) { return strip_impl(c, true, false); }
Value s_rstrip(const Call& c) { return strip_impl(c, false, true); }

// Go's strings.Fields / starlark-go's splitspace and rsplitspace (Unicode spaces).
std::vector<std::string> split_space(const std::string& s, int64_t max, bool reverse) {
  std::vector<std::string> res;
  if (!reverse) {
    // Counted first, so a string of millions of fields is refused before any is built; decoded
    // as it goes (a table of every rune would take 24 bytes per byte of `s`).
    size_t fields = 0;
    bool in_field = false;
    for (size_t i = 0; i < s.size() && static_cast<int64_t>(fields) <= max;) {
      gocompat::Rune r = gocompat::decode_rune(s, i);
      const bool space = gocompat::is_space(r.cp);
      if (!space && !in_field) ++fields;
      in_field = !space;
      i += r.width;
    }
    check_collection_size(std::min<size_t>(fields, static_cast<size_t>(max) + 1));
    int64_t start = -1;
    for (size_t i = 0, width = 0; i < s.size(); i += width) {
      gocompat::Rune r = gocompat::decode_rune(s, i);
      width = r.width;
      if (gocompat::is_space(r.cp)) {
        if (start >= 0) {
          if (static_cast<int64_t>(res.size()) == max) break;
          check_collection_size(res.size() + 1);  // before building it
          res.push_back(s.substr(static_cast<size_t>(start), i - static_cast<size_t>(start)));
          start = -1;
        }
      } else if (start == -1) {
        start = static_cast<int64_t>(i);
      }
    }
    if (start >= 0) res.push_back(s.substr(static_cast<size_t>(start)));
    return res;
  }
  // From the end, decoded backwards as starlark-go's rsplitspace does (no table of runes).
  int64_t end = -1;
  for (size_t i = s.size(); i > 0;) {
    gocompat::Rune r = gocompat::decode_last_rune(std::string_view(s).substr(0, i));
    const size_t after = i;
    i -= r.width;
    if (gocompat::is_space(r.cp)) {
      if (end >= 0) {
        if (static_cast<int64_t>(res.size()) == max) break;
        check_collection_size(res.size() + 1);  // before building it
        res.push_back(s.substr(after, static_cast<size_t>(end) - after));
        end = -1;
      }
    } else if (end < 0) {
      end = static_cast<int64_t>(after);
    }
  }
  if (end >= 0) res.push_back(s.substr(0, static_cast<size_t>(end)));
  std::reverse(res.begin(), res.end());
  return res;
}

Value split_impl(const Call& c, bool reverse) {
  Value sep, maxsplit_v;
  unpack_positional(c, 0, {{"sep", &sep}, {"maxsplit", &maxsplit_v, Want::kInt32}});
  const std::string& s = recv_str(c);
  int64_t max = c.args.size() > 1 ? small_int(maxsplit_v) : -1;
  std::vector<std::string> res;
  if (c.args.empty() || sep.is_none()) {
    res = split_space(s, max < 0 ? INT64_MAX : max, reverse && max >= 0);
  } else if (sep.kind() == Kind::kString) {
    const std::string& sp = str_ref(sep);
    if (sp.empty()) throw_error("split: empty separator");
    // Counted first: millions of fields are refused before any is built.
    size_t fields = 1;
    for (size_t p = s.find(sp);
         p != std::string::npos && (max < 0 || static_cast<int64_t>(fields) <= max);
         p = s.find(sp, p + sp.size()))
      ++fields;
    check_collection_size(fields);
    std::vector<std::string> all;
    size_t start = 0;
    for (;;) {
      if (!reverse && max >= 0 && static_cast<int64_t>(all.size()) == max) break;
      size_t p = s.find(sp, start);
      if (p == std::string::npos) break;
      check_collection_size(all.size() + 1);  // before building it
      all.push_back(s.substr(start, p - start));
      start = p + sp.size();
    }
    all.push_back(s.substr(start));
    if (reverse && max >= 0) {
      int64_t excess = static_cast<int64_t>(all.size()) - max;
      if (excess > 0) {
        std::string head;
        for (int64_t i = 0; i < excess; ++i) {
          if (i) head += sp;
          head += all[static_cast<size_t>(i)];
        }
        std::vector<std::string> kept{head};
        kept.insert(kept.end(), all.begin() + excess, all.end());
        all = std::move(kept);
      }
    }
    res = std::move(all);
  } else {
    throw_error("split: got " + std::string(sep.type_name()) + " for separator, want string");
  }
  check_collection_size(res.size());
  std::vector<Value> out;
  out.reserve(res.size());
  for (auto& r : res) out.push_back(str_value(std::move(r)));
  return list_value(std::move(out));
}
Value s_split(const Call& c) { return split_impl(c, false); }
Value s_rsplit(const Call& c) { return split_impl(c, true); }

Value s_join(const Call& c) {
  Value it;
  unpack_positional(c, 1, {{"iterable", &it, Want::kIterable}});
  const std::string& sep = recv_str(c);
  std::string out;
  bool first = true;
  for_each(it, [&](const Value& v) {
    if (!first) out += sep;
    if (v.kind() != Kind::kString)
      bfail(c, "in list, want string, got " + std::string(v.type_name()));
    first = false;
    out += str_ref(v);
    check_string_size(out.size());
  });
  return str_value(std::move(out));
}

Value s_replace(const Call& c) {
  Value old_v, new_v, count_v;
  unpack_positional(c, 2,
                    {{"old", &old_v, Want::kString},
                     {"new", &new_v, Want::kString},
                     {"count", &count_v, Want::kInt32}});
  const std::string& s = recv_str(c);
  const std::string& old = str_ref(old_v);
  const std::string& neu = str_ref(new_v);
  int64_t max = c.args.size() == 3 ? small_int(count_v) : -1;
  std::string out;
  int64_t n = 0;
  size_t i = 0;
  if (old.empty()) {
    // Go's strings.Replace: `neu` before every code point and at the end.
    while (max < 0 || n < max) {
      out += neu;
      ++n;
      if (i >= s.size()) {
        break;
      }
      size_t w = gocompat::decode_rune(s, i).width;
      out.append(s, i, w);
      i += w;
      check_string_size(out.size());
    }
    if (i < s.size()) out += s.substr(i);
    return str_value(std::move(out));
  }
  while (max < 0 || n < max) {
    size_t p = s.find(old, i);
    if (p == std::string::npos) break;
    out.append(s, i, p - i);
    out += neu;
    check_string_size(out.size());
    i = p + old.size();
    ++n;
  }
  out.append(s, i, std::string::npos);
  return str_value(std::move(out));
}

// Maps each code point of the receiver; unchanged ones keep their bytes, except that a byte
// that is not UTF-8 becomes U+FFFD (Go's strings.Map and range loops write RuneError).
template <class F>
Value map_runes(const Call& c, F f) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    gocompat::Rune r = gocompat::decode_rune(s, i);
    uint32_t m = f(r.cp);
    if (m == r.cp && !(r.cp == 0xFFFD && r.width == 1)) {
      out.append(s, i, r.width);
    } else {
      append_utf8(out, m);
    }
    i += r.width;
  }
  return str_value(std::move(out));
}

Value s_upper(const Call& c) { return map_runes(c, gocompat::to_upper); }
Value s_lower(const Call& c) { return map_runes(c, gocompat::to_lower); }

// Title case after an uncased code point, lower case after a cased one.
Value s_title(const Call& c) {
  bool prev_cased = false;
  return map_runes(c, [&](uint32_t r) {
    r = prev_cased ? gocompat::to_lower(r) : gocompat::to_title(r);
    prev_cased = gocompat::is_cased(r);
    return r;
  });
}

Value s_capitalize(const Call& c) {
  bool first = true;
  return map_runes(c, [&](uint32_t r) {
    r = first ? gocompat::to_title(r) : gocompat::to_lower(r);
    first = false;
    return r;
  });
}

// True for a non-empty receiver whose every code point satisfies `f`.
template <class F>
Value all_runes(const Call& c, F f) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  for (size_t i = 0; i < s.size();) {
    gocompat::Rune r = gocompat::decode_rune(s, i);
    if (!f(r.cp)) return Value::from_bool(false);
    i += r.width;
  }
  return Value::from_bool(!s.empty());
}
Value s_isalnum(const Call& c) {
  return all_runes(c, [](uint32_t r) { return gocompat::is_letter(r) || gocompat::is_digit(r); });
}
Value s_isalpha(const Call& c) { return all_runes(c, gocompat::is_letter); }
Value s_isdigit(const Call& c) { return all_runes(c, gocompat::is_digit); }
Value s_isspace(const Call& c) { return all_runes(c, gocompat::is_space); }

// Some cased code point, and the receiver equals its upper (lower) case.
Value cased(const Call& c, bool upper) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  bool any = false;
  for (size_t i = 0; i < s.size();) {
    gocompat::Rune r = gocompat::decode_rune(s, i);
    any = any || gocompat::is_cased(r.cp);
    uint32_t m = upper ? gocompat::to_upper(r.cp) : gocompat::to_lower(r.cp);
    if (m != r.cp) return Value::from_bool(false);
    i += r.width;
  }
  return Value::from_bool(any);
}
Value s_islower(const Call& c) { return cased(c, false); }
Value s_isupper(const Call& c) { return cased(c, true); }

// Upper (ASCII) or title case only after uncased code points, lower case only after cased
// ones; any other upper-case letter fails (starlark-go's rule).
Value s_istitle(const Call& c) {
  unpack_positional(c, 0, 0);
  const std::string& s = recv_str(c);
  bool prev_cased = false, any = false;
  for (size_t i = 0; i < s.size();) {
    gocompat::Rune rr = gocompat::decode_rune(s, i);
    uint32_t r = rr.cp;
    i += rr.width;
    if ((r >= 'A' && r <= 'Z') || gocompat::is_title(r)) {
      if (prev_cased) return Value::from_bool(false);
      prev_cased = any = true;
    } else if (gocompat::is_lower(r)) {
      if (!prev_cased) return Value::from_bool(false);
      prev_cased = any = true;
    } else if (gocompat::is_upper(r)) {
      return Value::from_bool(false);
    } else {
      prev_cased = false;
    }
  }
  return Value::from_bool(any);
}

Value partition_impl(const Call& c, bool reverse) {
  Value sep_v;
  unpack_positional(c, 1, {{"sep", &sep_v, Want::kString}});
  const std::string& s = recv_str(c);
  const std::string& sep = str_ref(sep_v);
  if (sep.empty()) bfail(c, "empty separator");
  size_t p = reverse ? s.rfind(sep) : s.find(sep);
  if (p == std::string::npos) {
    Value e = Value::from_string("");
    return reverse ? tuple_value({e, e, *c.receiver}) : tuple_value({*c.receiver, e, e});
  }
  return tuple_value({str_value(s.substr(0, p)), sep_v, str_value(s.substr(p + sep.size()))});
}
Value s_partition(const Call& c) { return partition_impl(c, false); }
Value s_rpartition(const Call& c) { return partition_impl(c, true); }

Value s_splitlines(const Call& c) {
  Value keepends;
  unpack_positional(c, 0, {{"keepends", &keepends, Want::kBool}});
  bool keep = !c.args.empty() && keepends.as_bool();
  const std::string& s = recv_str(c);
  // Counted first: millions of lines are refused before any is built.
  const size_t newlines = static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
  check_collection_size(newlines + (s.empty() || s.back() == '\n' ? 0 : 1));
  std::vector<Value> out;
  size_t i = 0;
  // Only "\n" ends a line (a "\r" stays in the line), as in ytt's starlark.
  while (i < s.size()) {
    size_t j = s.find('\n', i);
    size_t eol = j == std::string::npos ? s.size() : j;
    size_t next = j == std::string::npos ? s.size() : j + 1;
    check_collection_size(out.size() + 1);
    out.push_back(str_value(s.substr(i, (keep ? next : eol) - i)));
    i = next;
  }
  return list_value(std::move(out));
}

Value s_format(const Call& c) { return str_value(str_format(recv_str(c), c.args, c.kwargs)); }

// The iterable views `s.elems()`, `s.elem_ords()`, `s.codepoints()`, `s.codepoint_ords()`:
// not lists (no len, no index), iterable, shown as the call that made them.
class StringIterable : public HostObject {
 public:
  StringIterable(std::string s, bool ords, bool codepoints)
      : s_(std::move(s)), ords_(ords), codepoints_(codepoints) {}
  std::string_view type_name() const override { return codepoints_ ? "codepoints" : "elems"; }
  std::optional<std::string> hash_error() const override {
    return "unhashable: " + std::string(type_name());
  }
  std::string repr() const override {
    std::string out = repr_of(Value::from_string(s_));
    out += codepoints_ ? ".codepoint" : ".elem";
    out += ords_ ? "_ords()" : "s()";
    return out;
  }
  std::optional<Value> attr(std::string_view) const override { return std::nullopt; }
  std::optional<std::vector<Value>> iterate() const override {
    // Refused before building: one element per byte, or per code point (counted first).
    if (!codepoints_) check_collection_size(s_.size());
    if (codepoints_) {
      size_t n = 0;
      for (size_t i = 0; i < s_.size(); ++n) {
        size_t width = 0;
        decode_utf8(s_, i, &width);
        i += width;
      }
      check_collection_size(n);
    }
    std::vector<Value> out;
    for (size_t i = 0; i < s_.size();) {
      if (!codepoints_) {
        unsigned char b = static_cast<unsigned char>(s_[i]);
        out.push_back(ords_ ? Value::from_int(b) : str_value(std::string(1, s_[i])));
        ++i;
        continue;
      }
      size_t n = 0;
      uint32_t cp = decode_utf8(s_, i, &n);
      out.push_back(ords_ ? Value::from_int(cp) : str_value(s_.substr(i, n)));
      i += n;
    }
    return out;
  }
  // starlark-go's stringIterable is no container ("unknown binary op" for `in`) and is
  // compared as a Go struct: equal when made from the same string by the same method.
  std::optional<bool> contains(const Value& x) const override {
    throw_error("unknown binary op: " + std::string(x.type_name()) + " in " +
                std::string(type_name()));
  }
  Result<bool> equals(const HostObject& other) const override {
    const auto* o = dynamic_cast<const StringIterable*>(&other);
    return o && o->s_ == s_ && o->ords_ == ords_ && o->codepoints_ == codepoints_;
  }

 private:
  std::string s_;
  bool ords_, codepoints_;
};

Value string_iterable(const Call& c, bool ords, bool codepoints) {
  unpack_positional(c, 0, 0);
  return Value(new StringIterable(recv_str(c), ords, codepoints));
}
Value s_elems(const Call& c) { return string_iterable(c, false, false); }
Value s_elem_ords(const Call& c) { return string_iterable(c, true, false); }
Value s_codepoints(const Call& c) { return string_iterable(c, false, true); }
Value s_codepoint_ords(const Call& c) { return string_iterable(c, true, true); }

// ---- List methods ----------------------------------------------------------------------------

ListObj* recv_list(const Call& c) { return as_list(*c.receiver); }

void mutate(const Call& c, std::string_view verb) {
  try {
    check_mutable(*c.receiver, verb);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
}

Value l_append(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"x", &x}});
  mutate(c, "append to");
  auto& items = recv_list(c)->items;
  items.push_back(x);
  if (items.size() > kMaxCollectionLen) check_collection_size(items.size());
  return Value();
}

Value l_clear(const Call& c) {
  unpack_positional(c, 0, 0);
  mutate(c, "clear");
  recv_list(c)->items.clear();
  return Value();
}

Value l_extend(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"iterable", &x, Want::kIterable}});
  mutate(c, "extend");
  std::vector<Value> extra = to_vector(x);
  auto& items = recv_list(c)->items;
  check_collection_size(items.size() + extra.size());
  items.insert(items.end(), extra.begin(), extra.end());
  return Value();
}

Value l_index(const Call& c) {
  Value x, start, end;
  unpack_positional(c, 1, {{"x", &x}, {"start", &start}, {"end", &end}});
  auto& items = recv_list(c)->items;
  size_t lo, hi;
  indices(c, start, end, items.size(), &lo, &hi);
  for (size_t i = lo; i < hi && i < items.size(); ++i) {
    bool eq;
    try {
      eq = values_equal(items[i], x);
    } catch (EvalError& e) {
      if (e.kind == ErrorKind::kLimit) throw;
      bfail(c, e.message);
    }
    if (eq) return Value::from_int(static_cast<int64_t>(i));
  }
  bfail(c, "value not in list");
}

Value l_insert(const Call& c) {
  Value index, x;
  unpack_positional(c, 2, {{"index", &index, Want::kInt32}, {"x", &x}});
  mutate(c, "insert into");
  auto& items = recv_list(c)->items;
  int64_t i = small_int(index);
  int64_t n = static_cast<int64_t>(items.size());
  if (i < 0) i += n;
  i = std::clamp<int64_t>(i, 0, n);
  items.insert(items.begin() + i, x);
  check_collection_size(items.size());
  return Value();
}

Value l_pop(const Call& c) {
  Value index;
  unpack_positional(c, 0, {{"index", &index, Want::kInt32}});
  auto& items = recv_list(c)->items;
  int64_t n = static_cast<int64_t>(items.size());
  int64_t i = c.args.empty() ? n - 1 : small_int(index);
  int64_t orig = i;
  if (i < 0) i += n;
  if (i < 0 || i >= n) {
    if (n == 0) bfail(c, "index " + std::to_string(orig) + " out of range: empty list");
    bfail(c, "list index " + std::to_string(orig) + " out of range [" + std::to_string(-n) + ":" +
                 std::to_string(n - 1) + "]");
  }
  mutate(c, "pop from");
  Value v = items[static_cast<size_t>(i)];
  items.erase(items.begin() + i);
  return v;
}

Value l_remove(const Call& c) {
  Value x;
  unpack_positional(c, 1, {{"x", &x}});
  mutate(c, "remove from");
  auto& items = recv_list(c)->items;
  for (size_t i = 0; i < items.size(); ++i) {
    bool eq;
    try {
      eq = values_equal(items[i], x);
    } catch (EvalError& e) {
      if (e.kind == ErrorKind::kLimit) throw;
      bfail(c, e.message);
    }
    if (eq) {
      items.erase(items.begin() + static_cast<long>(i));
      return Value();
    }
  }
  bfail(c, "element not found");
}

// ---- Dict methods ----------------------------------------------------------------------------

HashTable& recv_table(const Call& c) { return as_dict(*c.receiver)->table; }

Value d_clear(const Call& c) {
  unpack_positional(c, 0, 0);
  check_mutable(*c.receiver, "clear");  // ytt reports this one without the "clear: " prefix
  recv_table(c).clear();
  return Value();
}

Value d_get(const Call& c) {
  unpack_positional(c, 1, 2);
  Value* v;
  try {
    v = recv_table(c).find(c.args[0]);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (v) return *v;
  return c.args.size() == 2 ? c.args[1] : Value();
}

Value d_items(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(tuple_value({e.key, e.value}));
  }
  return list_value(std::move(out));
}

Value d_keys(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(e.key);
  }
  return list_value(std::move(out));
}

Value d_values(const Call& c) {
  unpack_positional(c, 0, 0);
  std::vector<Value> out;
  for (const auto& e : recv_table(c).entries()) {
    if (e.live) out.push_back(e.value);
  }
  return list_value(std::move(out));
}

Value d_pop(const Call& c) {
  unpack_positional(c, 1, 2);
  mutate(c, "delete from");
  Value removed;
  bool found;
  try {
    found = recv_table(c).erase(c.args[0], &removed);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (found) return removed;
  if (c.args.size() == 2) return c.args[1];
  bfail(c, "missing key");
}

Value d_popitem(const Call& c) {
  unpack_positional(c, 0, 0);
  HashTable& t = recv_table(c);
  int i = t.first_live();
  if (i < 0) bfail(c, "empty dict");
  mutate(c, "delete from");
  Value k = t.entries()[static_cast<size_t>(i)].key;
  Value v;
  t.erase(k, &v);
  return tuple_value({k, v});
}

Value d_setdefault(const Call& c) {
  unpack_positional(c, 1, 2);
  HashTable& t = recv_table(c);
  Value* v;
  try {
    v = t.find(c.args[0]);
  } catch (EvalError& e) {
    bfail(c, e.message);
  }
  if (v) return *v;
  mutate(c, "insert into");
  Value d = c.args.size() == 2 ? c.args[1] : Value();
  t.insert(c.args[0], d);
  return d;
}

Value d_update(const Call& c) {
  bool inserts = !c.kwargs.empty() || (!c.args.empty() && length_of(c.args[0]) != 0);
  if (inserts) mutate(c, "insert into");
  dict_update_from(c, *c.receiver);
  return Value();
}

// ---- Set methods -----------------------------------------------------------------------------

Value set_union(const Call& c) {
  Value iterable;
  unpack_positional(c, 0, {{"iterable", &iterable, Want::kIterable}});
  // ytt's starlark dereferences the missing iterable (a Go runtime error, reported as is).
  if (c.args.empty()) {
    EvalError e("runtime error: invalid memory address or nil pointer dereference");
    e.bare = true;
    throw e;
  }
  Value s = new_set();
  try {
    for (const auto& e : as_set(*c.receiver)->table.entries()) {
      if (e.live) as_set(s)->table.insert(e.key, Value());
    }
    for_each(iterable, [&](const Value& v) { as_set(s)->table.insert(v, Value()); });
  } catch (EvalError& e) {
    if (e.kind == ErrorKind::kLimit) throw;
    bfail(c, e.message);
  }
  return s;
}

// ---- Tables ----------------------------------------------------------------------------------

struct Method {
  std::string_view name;
  BuiltinFn fn;
};

constexpr Method kStringMethods[] = {
    {"capitalize", s_capitalize}, {"codepoint_ords", s_codepoint_ords},
    {"codepoints", s_codepoints}, {"count", s_count},
    {"elem_ords", s_elem_ords},   {"elems", s_elems},
    {"endswith", s_endswith},     {"find", s_find},
    {"format", s_format},         {"index", s_index},
    {"isalnum", s_isalnum},       {"isalpha", s_isalpha},
    {"isdigit", s_isdigit},       {"islower", s_islower},
    {"isspace", s_isspace},       {"istitle", s_istitle},
    {"isupper", s_isupper},       {"join", s_join},
    {"lower", s_lower},           {"lstrip", s_lstrip},
    {"partition", s_partition},   {"replace", s_replace},
    {"rfind", s_rfind},           {"rindex", s_rindex},
    {"rpartition", s_rpartition}, {"rsplit", s_rsplit},
    {"rstrip", s_rstrip},         {"split", s_split},
    {"splitlines", s_splitlines}, {"startswith", s_startswith},
    {"strip", s_strip},           {"title", s_title},
    {"upper", s_upper},
};

constexpr Method kListMethods[] = {
    {"append", l_append}, {"clear", l_clear}, {"extend", l_extend}, {"index", l_index},
    {"insert", l_insert}, {"pop", l_pop},     {"remove", l_remove},
};

constexpr Method kDictMethods[] = {
    {"clear", d_clear},
    {"get", d_get},
    {"items", d_items},
    {"keys", d_keys},
    {"pop", d_pop},
    {"popitem", d_popitem},
    {"setdefault", d_setdefault},
    {"update", d_update},
    {"values", d_values},
};

constexpr Method kSetMethods[] = {{"union", set_union}};

std::span<const Method> methods_of(Kind k) {
  switch (k) {
    case Kind::kString:
      return kStringMethods;
    case Kind::kList:
      return kListMethods;
    case Kind::kDict:
      return kDictMethods;
    case Kind::kSet:
      return kSetMethods;
    default:
      return {};
  }
}

}  // namespace

std::optional<Value> builtin_method(const Value& recv, std::string_view name) {
  for (const auto& m : methods_of(recv.kind())) {
    if (m.name == name) return make_bound(m.name, m.fn, recv);
  }
  return std::nullopt;
}

BuiltinFn find_method(Kind k, std::string_view name) {
  for (const auto& m : methods_of(k)) {
    if (m.name == name) return m.fn;
  }
  return nullptr;
}

std::vector<std::string> builtin_method_names(Kind k) {
  std::vector<std::string> out;
  for (const auto& m : methods_of(k)) out.emplace_back(m.name);
  return out;
}

Value make_bound(std::string_view name, BuiltinFn fn, const Value& recv) {
  auto* b = new BuiltinObj();
  b->name = std::string(name);
  b->fn = fn;
  b->receiver = recv;
  b->bound = true;
  return Value(b);
}

// ---- Attributes ------------------------------------------------------------------------------

namespace {

// The names starlark-go's getAttr offers a spelling hint from (the type's AttrNames, in its
// order: a struct's fields as made, a module's and a built-in type's methods sorted).
std::vector<std::string> attr_candidates(const Value& x) {
  if (x.kind() == Kind::kStruct) {
    auto* s = static_cast<const StructObj*>(x.object());
    std::vector<std::string> out;
    for (const auto& [k, v] : s->fields) out.push_back(k);
    if (s->type_name == "module") std::sort(out.begin(), out.end());
    return out;
  }
  if (x.kind() == Kind::kHost) return static_cast<const HostObject*>(x.object())->attr_names();
  auto out = builtin_method_names(x.kind());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<Value> Value::attr(std::string_view name) const {
  try {
    return get_attr(*this, name);
  } catch (EvalError&) {
    return std::nullopt;
  }
}

std::vector<std::string> Value::attr_names() const { return dir_of(*this); }

std::string no_attr_message(const Value& x, std::string_view name) {
  std::string msg =
      std::string(x.type_name()) + " has no ." + std::string(name) + " field or method";
  if (std::string n = diag::go_spell_nearest(name, attr_candidates(x)); !n.empty()) {
    msg += " (did you mean ." + n + "?)";
  }
  return msg;
}

Value get_attr(const Value& x, std::string_view name) {
  if (x.kind() == Kind::kStruct) {
    auto* s = static_cast<const StructObj*>(x.object());
    for (const auto& [k, v] : s->fields) {
      if (k == name) return v;
    }
    if (s->type_name == "module") throw_error(no_attr_message(x, name));
  } else if (x.kind() == Kind::kHost) {
    if (auto v = static_cast<const HostObject*>(x.object())->attr(name)) return *v;
  } else if (auto m = builtin_method(x, name)) {
    return *m;
  }
  throw_error(no_attr_message(x, name));
}

std::vector<std::string> dir_of(const Value& x) {
  std::vector<std::string> out;
  if (x.kind() == Kind::kStruct) {
    for (const auto& [k, v] : static_cast<const StructObj*>(x.object())->fields) out.push_back(k);
  } else if (x.kind() == Kind::kHost) {
    out = static_cast<const HostObject*>(x.object())->attr_names();
  } else {
    out = builtin_method_names(x.kind());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace hintkit::starlark
