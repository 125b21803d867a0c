#pragma once
// Image folders for classification: one subfolder per class, its name the class name.
//
//   photos/cat/1.png  photos/cat/2.jpg  photos/dog/a.bmp ...
//
//   tw::data::ImageFolderOptions options;
//   options.width = options.height = 32;   // every image resized to 32x32
//   tw::data::Examples e = tw::data::readImageFolder("photos", options);
//   // e.featureShape {3, 32, 32} (CHW), values in [0, 1]; e.classNames {"cat", "dog"}
//
// Class folders are sorted by name (class index = position); hidden ones (".x") are ignored.
// Files in a class folder are read in sorted order; only .png .jpg .jpeg .bmp (any case) count,
// other files are skipped. Decoding and resizing are image_codec.h's. Errors are std::runtime_error
// naming the file or folder: "photos/cat/7.png: cannot decode (PNG: <reason>)". Training streams a
// folder (example_store.h's openImageFolderStore); readImageFolder decodes it whole.

#include "core/data/examples.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tw::data {

struct ImageFolderOptions {
  int64_t width = 0;          // 0 = the first image's width; other sizes are resized to it
  int64_t height = 0;         // 0 = the first image's height
  int64_t channels = 0;       // 1 gray, 3 RGB; 0 = 3 if any image has colour, else 1
  int64_t limitPerClass = 0;  // first N images of each class (sorted order); 0 = all
  int64_t workers = 0;        // decoding threads; 0 = one per core (the result is the same)
};

// features: count * channels * height * width floats, CHW per example: the store's examples, all.
Examples readImageFolder(const std::string &dir, const ImageFolderOptions &options);

// The files readImageFolder would decode, in its order, with their class indices: the listing
// alone, for `torchwright pack` (which stores the encoded bytes) and for readers that decode later.
struct ImageFile {
  std::string path;
  int64_t label = 0;
};
struct ImageFolderListing {
  std::vector<std::string> classNames;
  std::vector<ImageFile> files;
};
// Throws std::runtime_error naming the folder: missing, not a folder, no class subfolders, or a
// class folder without images.
ImageFolderListing listImageFolder(const std::string &dir, int64_t limitPerClass = 0);

// An encoded image held in memory (a packed shard's member) decoded as an image folder's file is
// (image_codec.h) into channels x height x width floats in [0, 1]. `where` names the image in errors.
void decodeImage(const std::string &bytes, const std::string &where, int channels, int width, int height, float *out);

// The class subfolders readImageFolder would read, without reading an image; 0 when `dir` is not
// a folder.
int64_t imageFolderClasses(const std::string &dir);

}  // namespace tw::data
