#pragma once
// The one rule for a name that must stay inside its folder: a name written in a file (an ONNX
// tensor's external data), typed by a person (a study's name) or made of a choice (a checkpoint)
// becomes a path here and nowhere else. Refused: an empty name, an absolute path, `..`, and a
// symbolic link anywhere on the way (dangling ones too) that leads out of the folder. A hard link
// cannot be told from inside except by its link count: where the file is read, a name with more
// than one link is refused (its bytes may be another folder's file); where the caller writes, it
// writes a temporary file and renames it over the name (engine::writeFileAtomically, QSaveFile
// on a path without links), which replaces the link instead of writing through it.
//
//   const std::string weights = config::pathInside(modelFolder, location, "external data", HardLinks::Refuse);

#include <stdexcept>
#include <string>

namespace tw::config {

enum class HardLinks {
  Refuse,  // the file is read: its content must be this folder's
  Allow,   // the caller writes by rename, or the folder is ours (an epoch checkpoint is a hard link of last.pt)
};

struct InsidePath {
  std::string path;     // folder/name, links resolved; empty when refused
  std::string problem;  // why the name is refused ("is an absolute path ..."), empty when it is not
};

// `folder` need not be canonical; the answer is, so a reader opens what was checked.
InsidePath resolveInside(const std::string &folder, const std::string &name, HardLinks links);

// The same, throwing std::runtime_error "<field> '<name>' <problem>" when refused.
std::string pathInside(const std::string &folder, const std::string &name, const std::string &field, HardLinks links);

}  // namespace tw::config
