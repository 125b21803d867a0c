#pragma once
// Small helpers shared by the data tests: files with exact bytes, and thrown messages as QString.

#include <QString>
#include <QTemporaryDir>
#include <QStringList>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tw::data::testing {

inline void writeText(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A test program's own folder, removed at its end, and files written into it (folders on the way
// made): a test class inherits it after QObject and checks m_tmp.isValid() in initTestCase.
class TempFolder {
 protected:
  QTemporaryDir m_tmp;
  std::string file(const std::string &name, const std::string &bytes) {
    const std::string path = m_tmp.path().toStdString() + "/" + name;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    writeText(path, bytes);
    return path;
  }
};

// Runs f and returns the std::exception's message; empty when it did not throw.
template <typename F>
QString errorOf(F f) {
  try {
    f();
  } catch (const std::exception &e) {
    return QString::fromStdString(e.what());
  }
  return {};
}

inline QStringList toQStrings(const std::vector<std::string> &values) {
  QStringList out;
  for (const std::string &v : values) out << QString::fromStdString(v);
  return out;
}

inline std::vector<std::string> toStrings(const QStringList &values) {
  std::vector<std::string> out;
  for (const QString &v : values) out.push_back(v.toStdString());
  return out;
}

}  // namespace tw::data::testing
