// `hintkit values` (ytt's pkg/cmd/template): reads the inputs, runs the root library through
// its phases in ytt's order (ytt/workspace: LibraryExecution), and prints the data values, the
// schema or the rendered templates, or writes them to an output folder.
#include <algorithm>
#include <cmath>

#include "diag/stack.h"
#include "ytt/cmd/cmd.h"
#include "ytt/overlay/overlay.h"
#include "ytt/schema/schema.h"
#include "ytt/workspace/workspace.h"

namespace hintkit::ytt {

namespace {

ExecutionSettings settings_of(const Options& o) {
  ExecutionSettings s;
  s.max_starlark_steps = o.max_starlark_steps;
  s.max_starlark_call_depth = o.max_starlark_call_depth;
  s.after_loading_thread = o.after_loading_thread;
  s.disable_validation = o.disable_validation;
  return s;
}

// ytt's template command over one run's options.
class TemplateCommand {
 public:
  explicit TemplateCommand(const Options& o) : opts_(o), exec_(settings_of(o)) {}

  Outcome run() {
    Outcome out;
    try {
      std::string printed = pipeline();
      if (opts_.bulk_out) {
        out.out = bulk_output(output_files_, "");
      } else {
        out.out = writes_files() ? write_output_files() : std::move(printed);
      }
      out.err = exec_.printed();
    } catch (const Unsupported& u) {
      out.exit_code = kExitUnsupported;
      out.out = printed_files_;
      out.err = exec_.printed() + unsupported_text(u.feature);
    } catch (YttError& e) {
      if (!exec_.files().unsupported.empty()) {  // the failure came from a refused feature
        out.exit_code = kExitUnsupported;
        out.err = exec_.printed() + unsupported_text(exec_.files().unsupported);
        exec_.stop_loading();
        return out;
      }
      if (opts_.bulk_out && inputs_read_) {
        // ytt's bulk output holds the error of the run (not of reading its input) as text.
        out.out = bulk_output({}, e.error_text());
        out.err = exec_.printed();
        exec_.stop_loading();
        return out;
      }
      out.exit_code = e.exit_code;
      out.out = printed_files_;
      out.problems = std::move(e.problems);
      const std::string text = multi_line_error(e.message());
      out.err =
          exec_.printed() + "Error: " + text + (text.empty() || text.back() != '\n' ? "\n" : "");
    }
    exec_.stop_loading();  // joins the loading thread (also after an early error)
    return out;
  }

 private:
  bool writes_files() const {
    return !opts_.output_files.empty() || !opts_.output_directory.empty();
  }
  // Output files are made for an output folder and for --bulk-out; documents are printed
  // for neither (ytt's bulk output holds files only: an inspection prints `{}`).
  bool makes_files() const { return writes_files() || opts_.bulk_out; }
  bool prints_documents() const { return !makes_files(); }

  // ytt's OutputDirectory (output_dir.cpp). The "creating:" lines printed before a failure
  // stay printed, as ytt's UI prints each at once.
  std::string write_output_files() {
    const bool emptied = !opts_.output_directory.empty();
    write_output_directory(emptied ? opts_.output_directory : opts_.output_files, output_files_,
                           emptied, printed_files_);
    return printed_files_;
  }

  ReadRules read_rules() const {
    return {&opts_.unsaved_texts, opts_.regular_files_only, opts_.allow_all_symlinks,
            &opts_.allowed_symlink_destinations};
  }

  // The -f inputs as ytt's file set (file_set.cpp). Files of private libraries (`_ytt_lib`)
  // stay in it (load() and data.list meet them as private) but are no templates of this
  // library (`own`).
  void read_inputs() {
    Files& files = exec_.files();
    files.ignore_unknown_comments = opts_.ignore_unknown_comments;
    files.strict_yaml = opts_.strict;
    files.implicit_map_key_overrides = opts_.implicit_map_key_overrides;
    std::vector<SourceFile> read = opts_.bulk_in.empty()
                                       ? read_file_set(opts_.files, stdin_use_, read_rules())
                                       : read_bulk_input(opts_.bulk_in);
    inputs_read_ = true;
    apply_file_marks(read, opts_.file_marks);
    for (auto& f : read) files.files.push_back(std::move(f));
  }

  // ytt's RunWithFiles: flags, schema, (schema inspection), data values, validations, then
  // the data values or the rendered templates.
  std::string pipeline() {
    choose_output_types();
    read_inputs();
    if (opts_.files_inspect) return inspect_files();
    exec_.inputs_read();
    // Flags are read before any file is templated, as ytt does, so their errors come first.
    std::vector<ValuesSource> flag_sources = data_values_flag_sources(opts_, exec_, stdin_use_);
    exec_.classify_files();
    exec_.build_schema();
    check_output_types();
    if (opts_.schema_inspect) {
      // ytt prints the schema as it is: no data values are read, no rule is run.
      if (schema_format_ != "openapi-v3") {
        throw YttError{
            "Data values schema export only supported in OpenAPI v3 format; specify "
            "format with --output=openapi-v3 flag"};
      }
      if (opts_.bulk_out) return {};
      if (format_ == "json" && exec_.type() && schema_has_non_string_key(*exec_.type())) {
        throw Unsupported{"JSON output of a schema with non-string keys"};
      }
      if (format_ == "pos") {
        DDoc doc = openapi_document(exec_.type());
        return print_positions({&doc}, place_name());
      }
      return openapi_text(exec_.type(), format_ == "json");
    }
    if (schema_format_ == "openapi-v3") {
      throw YttError{
          "Output type currently only supported for data values schema (i.e. include "
          "--data-values-schema-inspect)"};
    }
    exec_.merge_values(std::move(flag_sources));
    if (!opts_.disable_validation) exec_.validate();
    exec_.refuse_repeated_keys();
    if (opts_.inspect) return opts_.bulk_out ? std::string() : inspect_output(*exec_.values());
    exec_.publish_values();
    return render_templates();
  }

  void check_output_types() const {
    if (opts_.output_empty_type) throw YttError{"Unknown output type ''"};
    if (!opts_.output.empty() && opts_.output != "yaml" && opts_.output != "json" &&
        opts_.output != "pos") {
      throw YttError{"Unknown output type '" + opts_.output + "'"};
    }
  }

  // ytt's OutputType (parse_args has split the list): the file format and the schema type.
  // An unknown type is reported once the schema is built, where ytt first asks for the types.
  void choose_output_types() {
    format_ = opts_.output.empty() ? "yaml" : opts_.output;
    schema_format_ = opts_.output_openapi ? "openapi-v3" : "";
  }

  // ytt prints the values as one document, and its printer skips an empty one (null, `{}`).
  std::string inspect_output(const DNode& values) {
    if (values.is_null() || (!values.is_scalar() && values.entries.empty())) return {};
    if (format_ == "json") return has_non_finite(values) ? std::string() : json_output(values);
    if (format_ == "pos") {
      DDoc doc;
      doc.value = exec_.values();
      doc.span = exec_.values_span();
      return print_positions({&doc}, place_name());
    }
    return emit_yaml(values);
  }

  // A known place as ytt's AsCompactString spells it, flag values under ytt's names for them.
  PlaceName place_name() {
    return [this](const diag::Span& s) { return compact_position(exec_.files(), s); };
  }

  // The output documents (`evaluate_documents`) as ytt prints them.
  std::string render_templates() {
    const bool text_output = exec_.evaluate_documents();
    std::vector<std::vector<DDoc>>& sets = exec_.output();
    // Text templates' results come first, in evaluation order (ytt's order of output files).
    for (auto& file : exec_.text_outputs()) output_files_.push_back(std::move(file));
    std::string out;
    // Documents are printed for stdout or for the output files, not for both (printing is a
    // sixth of a large run). JSON is still spelled with output files: its refusals stand.
    if (prints_documents() || (writes_files() && format_ == "json")) {
      std::vector<const DDoc*> docs;
      for (const auto& set : sets)
        for (const auto& d : set) docs.push_back(&d);
      out = print_documents(docs);
    }
    // ytt's output files: one per template whose documents (not counting overlays and empty
    // ones) made a set, whatever overlays left in it.
    for (size_t k = 0; k < sets.size() && makes_files(); ++k) {
      std::string text;
      for (const auto& d : sets[k]) {
        if (doc_empty(d)) continue;
        if (!text.empty()) text += "---\n";
        text += emit_yaml(*d.value);
      }
      output_files_.push_back(
          {exec_.files().files[exec_.output_files_of_sets()[k]].path, std::move(text)});
    }
    if (text_output && prints_documents()) {
      exec_.printed() +=
          "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to "
          "standard output.\nIf you want to include those results, use the --output-files or "
          "--dangerous-emptied-output-directory flag.\n";
    }
    return out;
  }

  // Documents as ytt's printer for the output type prints them to standard output.
  std::string print_documents(const std::vector<const DDoc*>& docs) {
    std::vector<const DDoc*> printed;  // ytt's printers skip empty documents
    for (const DDoc* d : docs)
      if (!doc_empty(*d)) printed.push_back(d);
    if (format_ == "pos") return print_positions(printed, place_name());
    std::string out;
    for (const DDoc* d : printed) {
      if (format_ == "json") {
        // ytt: one compact JSON text per document, back to back; those JSON cannot spell
        // (inf, nan) print nothing.
        if (!has_non_finite(*d->value)) out += json_output(*d->value);
        continue;
      }
      if (!out.empty()) out += "---\n";
      out += emit_yaml(*d->value);
    }
    return out;
  }

  // ytt's inspectFiles (--files-inspect): the paths of the root library's files, in the file
  // set's order and without those of private libraries, as one document, printed as the
  // output type says (no file for an output folder or bulk output, whose output type goes
  // unchecked). Nothing is read or templated.
  std::string inspect_files() {
    if (!prints_documents()) return {};  // ytt checks the output type only to print
    check_output_types();
    DDoc doc;
    doc.value = make_node(yaml::Kind::kArray);
    for (const SourceFile& f : exec_.files().files) {
      if (is_in_private_library(f.path)) continue;
      DPtr path = make_node(yaml::Kind::kString);
      path->scalar = string_scalar(f.path);
      doc.value->entries.emplace_back().value = std::move(path);
    }
    return print_documents({&doc});
  }

  static bool has_non_finite(const DNode& v) {
    if (v.kind == yaml::Kind::kFloat && !std::isfinite(v.scalar.float_value)) return true;
    for (const auto& e : v.entries)
      if (has_non_finite(*e.value)) return true;
    return false;
  }

  std::string json_output(const DNode& v) {
    if (has_non_string_key(v)) throw Unsupported{"JSON output of a map with non-string keys"};
    return yaml::emit_json(sorted_copy(v));
  }

  // ytt panics on these (its JSON encoder takes string keys only).
  static bool schema_has_non_string_key(const SType& t) {
    for (size_t i = 0; i < t.fields.size(); ++i) {
      if (t.key(i).kind != yaml::Kind::kString || schema_has_non_string_key(t.field_type(i))) {
        return true;
      }
    }
    return t.item && schema_has_non_string_key(*t.item_type());
  }

  static yaml::Node sorted_copy(const DNode& v) {
    yaml::Node n = to_yaml(v);
    sort_keys(n);
    return n;
  }

  static void sort_keys(yaml::Node& n) {
    if (n.kind == yaml::Kind::kMap) {
      std::stable_sort(n.items.begin(), n.items.end(),
                       [](const yaml::MapItem& a, const yaml::MapItem& b) {
                         return key_text(scalar_of(a.key)) < key_text(scalar_of(b.key));
                       });
      for (auto& it : n.items) sort_keys(it.value);
    } else if (n.kind == yaml::Kind::kArray) {
      for (auto& e : n.elements) sort_keys(e);
    }
  }

  const Options& opts_;
  LibraryExecution exec_;  // the root library
  StdinUse stdin_use_;     // -f and the data values flags read standard input once between them
  bool inputs_read_ = false;  // past ytt's Input(): errors from here on are the run's
  // Files for --output-files: text results (in evaluation order), then YAML ones (file order).
  std::vector<OutputFile> output_files_;
  std::string printed_files_;  // "creating:" lines of the files written so far
  std::string format_;         // yaml or json
  std::string schema_format_;  // openapi-v3 or ""
};

}  // namespace

Outcome run(const Options& options) {
  if (options.command == Command::kFmt) return run_fmt(options);
  // Templates may recurse as deeply as ytt lets them (10,000 calls and more) and build values
  // as deeply nested: the whole run, freeing included, gets a stack as large as Go's.
  Outcome out;
  diag::run_with_big_stack([&] {
    auto command = std::make_shared<TemplateCommand>(options);
    out = command->run();
    if (!options.free_at_end) out.retained = std::move(command);
  });
  return out;
}

}  // namespace hintkit::ytt
