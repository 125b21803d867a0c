#pragma once
// Whether a file is a whole zip archive, as every Torchwright checkpoint and every torch.save
// file of PyTorch 1.6 or later is. A file cut short (a copy interrupted, a disk that filled up
// under another writer) loses its end first, and a zip archive's directory is at its end, so this
// finds a truncated checkpoint without LibTorch: the CLI refuses it before it records anything or
// starts a worker. What it cannot see (bytes damaged in the middle) LibTorch's reader refuses
// later. Torch-free.
//
//   if (const std::string problem = zipArchiveProblem(file); !problem.empty())
//     fail("checkpoint " + file + ": " + problem);

#include <string>

namespace tw::config {

// Empty when the file ends with a zip archive's end-of-central-directory record whose directory
// lies inside the file; else what is wrong, with the file's size ("is truncated or is not a
// zip archive, as checkpoints and torch.save files are: no zip directory at its end (1,000
// bytes)"). Unreadable files say why.
std::string zipArchiveProblem(const std::string &path);

// Every member stored uncompressed (as torch.save and LibTorch write them) against the CRC-32 the
// zip directory records for it, and every member inside the archive. LibTorch's zip reader is
// miniz built without its CRC checks: it hands damaged bytes on, and its TorchScript and pickle
// readers crash on some of them (tests/fuzz/checkpoint). Empty when all agree; else which member
// and what ("member 'archive/data.pkl' is damaged: its bytes do not match their CRC-32").
std::string zipMembersProblem(const std::string &bytes);

// Whether a zip reader would take the bytes for an archive: an end-of-central-directory
// signature within the last 64 KiB, wherever the file starts (miniz, LibTorch's reader, looks
// for it there and nowhere else). Looser than zipMembersProblem, on purpose: what a reader would
// open must be checked.
bool looksLikeZip(const std::string &bytes);

}  // namespace tw::config
