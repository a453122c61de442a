"""A class-balanced subset of a zip of CIFAR-10 JPEGs, split into training and validation.

The real-data zip holds training images only (train/<class>/NNNN.jpg, 5,000 per class); the
seeds' anchor converter (cifar_jpg_to_bin.py) wants train/<class>/ and val/<class>/. This takes,
in each class, the first TRAIN/10 images by name for train/ and the next VAL/10 for val/, so the
validation split is carved from the training images, never the held-back test images, and the
same arguments always give the same subset. The JPEG bytes are copied unchanged and stored, not
deflated: JPEG does not compress further, and storing keeps the zip as small as its contents.
Run: python3 bench/cifar_subset.py SOURCE_ZIP OUT_ZIP TRAIN VAL
"""
import sys
import zipfile
from collections import defaultdict

source, out, train, val = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
with zipfile.ZipFile(source) as z:
    per_class = defaultdict(list)
    for name in sorted(z.namelist()):
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "train" and name.endswith(".jpg"):
            per_class[parts[1]].append(name)
    if len(per_class) != 10:
        sys.exit(f"{source}: {len(per_class)} classes under train/, expected 10")
    n_train, n_val = train // 10, val // 10
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as o:
        for cls, names in sorted(per_class.items()):
            if len(names) < n_train + n_val:
                sys.exit(f"{source}: class {cls} has {len(names)} images, {n_train + n_val} asked")
            for split, chosen in (("train", names[:n_train]), ("val", names[n_train:n_train + n_val])):
                for name in chosen:
                    o.writestr(f"{split}/{cls}/{name.rsplit('/', 1)[1]}", z.read(name))
print(f"{out}: {n_train * 10} training + {n_val * 10} validation images")
