// The plugin folder scan's notices: search path entries that are not folders, and files that are
// loom plugins but are not named as the loader looks for them (not installed).
#pragma once
#include <string>
#include <vector>

#include "loom/runtime.hpp"

namespace loom::detail {

// Whether the file at `path` is an ELF shared object whose dynamic symbol table defines
// `loom_plugin` (the factory LOOM_PLUGIN exports). Read with pread, never loaded or mapped; false
// for anything else, unreadable or damaged files included.
bool exports_loom_plugin(const std::string& path);

// The name the loader would load the library file `file` by: "loom_foo.so", "libfoo.so" and
// "foo.so.1" give "libloom_foo.so".
std::string loader_name_for(const std::string& file);

// The notice for one search path entry that cannot be scanned, or none (it is a folder).
std::vector<SearchNotice> entry_notices(const std::string& entry);

// The notice for a file of a plugin folder that the loader passes over for its name, when it is
// a loom plugin; none otherwise.
std::vector<SearchNotice> file_notices(const std::string& path);

// Appended to a failed lookup: the notices, at most three ("; note: search path entry '/nope'
// does not exist"), or empty when there are none. `after_sentence`: the message so far ends a
// sentence ('.' or '?'), so the note starts one.
std::string notices_note(const std::vector<SearchNotice>& notices, bool after_sentence);

}  // namespace loom::detail
