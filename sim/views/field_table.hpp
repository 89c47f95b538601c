// Views generated from field declarations: the columns a user chose (`--columns`), a
// ColumnTable for the text table, CSV, Markdown and LaTeX, and JSON objects whose
// dotted keys nest. Every report goes through these, so a quantity reads the same name
// and value in every format.
#pragma once

#include <string>
#include <vector>

#include "sim/base/close_names.hpp"
#include "sim/base/error.hpp"
#include "sim/views/column_table.hpp"
#include "sim/views/field.hpp"
#include "sim/views/json.hpp"

namespace ridge {

// Which columns a table shows: the compact default, every field ("all"), or the keys
// listed ("name,op,time_s").
struct ColumnChoice {
  enum class Kind { compact, all, listed } kind = Kind::compact;
  std::vector<std::string> keys;
};
ColumnChoice parse_column_choice(const std::string& text);  // "" is compact

template <class Row>
std::vector<const Field<Row>*> choose_fields(const std::vector<Field<Row>>& fields, const ColumnChoice& choice) {
  std::vector<const Field<Row>*> out;
  if (choice.kind != ColumnChoice::Kind::listed) {
    for (const Field<Row>& f : fields)
      if (choice.kind == ColumnChoice::Kind::all || f.compact) out.push_back(&f);
    return out;
  }
  std::vector<std::string> keys;
  for (const Field<Row>& f : fields) keys.push_back(f.key);
  for (const std::string& k : choice.keys) {
    const Field<Row>* found = nullptr;
    for (const Field<Row>& f : fields)
      if (f.key == k) found = &f;
    if (!found) throw InputError({}, "--columns: no column '" + k + "' in this report", suggestion_hint(k, keys));
    out.push_back(found);
  }
  return out;
}

template <class Row>
void add_columns(ColumnTable& t, const std::vector<const Field<Row>*>& fields) {
  for (const Field<Row>* f : fields)
    t.columns.push_back({f->title, f->key, f->unit != Unit::text && f->unit != Unit::shape, f->unit == Unit::text});
}

// A row's cells; `raw_only` (CSV) skips the human text, which a machine format never
// shows (a per-layer sweep writes hundreds of thousands of rows).
template <class Row>
std::vector<Cell> field_cells(const std::vector<const Field<Row>*>& fields, const Row& row, bool raw_only = false) {
  std::vector<Cell> cells;
  cells.reserve(fields.size());
  for (const Field<Row>* f : fields) {
    FieldValue v = f->get(row);
    std::string raw = raw_text(v);
    cells.push_back({raw_only ? std::string() : human_text(v, f->unit), std::move(raw)});
  }
  return cells;
}

// Sets each field's value in `object`, nesting at the dots of its key; a value that
// does not apply is left out.
template <class Row>
void put_fields(Json& object, const std::vector<const Field<Row>*>& fields, const Row& row) {
  for (const Field<Row>* f : fields) {
    FieldValue v = f->get(row);
    if (std::holds_alternative<NotApplicable>(v)) continue;
    set_path(object, f->key, json_value(v));
  }
}

template <class Row>
std::vector<const Field<Row>*> all_fields(const std::vector<Field<Row>>& fields) {
  return choose_fields(fields, ColumnChoice{ColumnChoice::Kind::all, {}});
}

// `fields` of an Inner, read from an Outer row through `inner` (Outer -> Inner), appended
// to `out`: a view whose rows hold another's row reuses its declarations.
template <class Outer, class Inner, class Project>
void append_fields(std::vector<Field<Outer>>& out, const std::vector<const Field<Inner>*>& fields, Project inner) {
  for (const Field<Inner>* f : fields)
    out.push_back({f->key, f->title, f->unit, [get = f->get, inner](const Outer& o) { return get(inner(o)); }, f->compact});
}

}  // namespace ridge
