// Whether a plugin file or folder can be changed by someone other than the user running the
// program or root (loom/plugin_file.hpp). Whoever can replace a plugin, or rename a folder on its
// way and put another in its place, runs code in every program that loads it; the rules are
// those of sudo's and OpenSSH's StrictModes checks (docs/reliability.md, "Plugin files").
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "loom/plugin_file.hpp"

namespace loom {

namespace {

namespace fs = std::filesystem;

std::string mode_of(const struct stat& st) {
  char mode[8];
  std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
  return mode;
}

std::string user_name(uid_t uid) {
  struct passwd pw {};
  struct passwd* found = nullptr;
  char buf[1024];
  if (::getpwuid_r(uid, &pw, buf, sizeof buf, &found) == 0 && found && found->pw_name) {
    return std::string(found->pw_name) + " (uid " + std::to_string(uid) + ")";
  }
  return "uid " + std::to_string(uid);
}

// Owned by someone who could rewrite it: neither the effective user nor root.
std::string foreign_owner(const struct stat& st) {
  const uid_t me = ::geteuid();
  if (st.st_uid == me || st.st_uid == 0) return {};
  return "belongs to user " + user_name(st.st_uid) + ", who is neither you (" + user_name(me) +
         ") nor root";
}

// The plugin (or plugin folder) itself, resolved: no other user may write or own it.
std::string own_problem(const struct stat& st, const std::string& prefix) {
  if (st.st_mode & S_IWOTH) {
    // The sticky bit (as on /tmp) keeps others from replacing a file, not from adding one: a
    // world-writable plugin folder is refused with or without it.
    return prefix + "is writable by every user (mode " + mode_of(st) +
           "); remove the write permission of others (chmod o-w)";
  }
  if (auto who = foreign_owner(st); !who.empty()) {
    return prefix + who + "; chown it or move it to a folder of yours";
  }
  return {};
}

// Every folder from `dir` (resolved, no symlinks in it) up to "/": one that others may write
// without the sticky bit, or that another user owns, lets them rename what is below it and put
// something else in its place.
std::string folder_chain_problem(fs::path dir, const std::string& below) {
  while (true) {
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) return {};  // vanished: the load reports it
    if ((st.st_mode & S_IWOTH) && !(st.st_mode & S_ISVTX)) {
      return "folder " + dir.string() + " " + below + " is writable by every user and has no " +
             "sticky bit (mode " + mode_of(st) + "), so anyone can replace what is in it";
    }
    if (auto who = foreign_owner(st); !who.empty()) {
      return "folder " + dir.string() + " " + below + " " + who + ", who can replace what is in it";
    }
    if (!dir.has_relative_path()) return {};  // "/" done
    dir = dir.parent_path();
  }
}

}  // namespace

std::string plugin_trust_problem(const std::string& path, bool folder_trusted) {
  if (folder_trusted) {  // the folder scan checked the folder and those above it just now
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return own_problem(st, "it ");
  }
  std::error_code ec;
  const fs::path given = fs::absolute(path, ec).lexically_normal();
  if (ec) return {};
  const fs::path real = fs::canonical(given, ec);
  if (ec) return {};  // missing or a dangling link: opening it reports that
  struct stat st {};
  if (::stat(real.c_str(), &st) != 0) return {};
  const bool link = real != given;
  const std::string prefix =
      link ? "it resolves (through a symlink) to " + real.string() + ", which " : "it ";
  if (auto why = own_problem(st, prefix); !why.empty()) return why;
  if (auto why = folder_chain_problem(real.parent_path(), link ? "above its target" : "above it");
      !why.empty()) {
    return why;
  }
  if (link) {
    // The link itself can be replaced by whoever controls the folders holding it.
    const fs::path holder = fs::canonical(given.parent_path(), ec);
    if (!ec) {
      if (auto why = folder_chain_problem(holder, "holding the symlink"); !why.empty()) return why;
    }
  }
  return {};
}

}  // namespace loom
