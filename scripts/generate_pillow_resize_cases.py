#!/usr/bin/env python3
"""Writes tests/fixtures/hf/pillow_resize_cases.json: small random RGB images resized with
Pillow's BILINEAR filter (as Hugging Face image processors resize), up and down, square and not,
and one ViTImageProcessor run, for the C++ resize and processor tests.

    PYTHONPATH=../shared/hf/site HF_HUB_OFFLINE=1 /usr/bin/python3 \
        scripts/generate_pillow_resize_cases.py tests/fixtures/hf/pillow_resize_cases.json
"""
import json
import sys

import numpy as np
from PIL import Image

SIZES = [  # (height, width) -> (out_height, out_width)
    ((5, 7), (11, 16)),
    ((30, 40), (13, 9)),
    ((10, 10), (35, 35)),
    ((17, 23), (17, 8)),
    ((12, 9), (4, 9)),
    ((32, 32), (24, 24)),
    ((3, 50), (7, 5)),
]


def planar(image):
    return np.ascontiguousarray(image.transpose(2, 0, 1)).reshape(-1).tolist()


def main(out_path):
    rng = np.random.default_rng(20261124)
    cases = []
    for (h, w), (oh, ow) in SIZES:
        image = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
        resized = np.asarray(Image.fromarray(image).resize((ow, oh), resample=Image.BILINEAR))
        cases.append({"height": h, "width": w, "out_height": oh, "out_width": ow,
                      "pixels": planar(image), "resized": planar(resized)})
    processor_case = None
    try:
        from transformers import ViTImageProcessor
        image = rng.integers(0, 256, size=(20, 28, 3), dtype=np.uint8)
        processor = ViTImageProcessor(size={"height": 12, "width": 16},
                                      image_mean=[0.485, 0.456, 0.406],
                                      image_std=[0.229, 0.224, 0.225])
        values = processor(image, return_tensors="np")["pixel_values"][0]
        processor_case = {"config": processor.to_dict(), "height": 20, "width": 28,
                          "pixels": planar(image),
                          "pixel_values": [float(v) for v in values.reshape(-1)]}
        processor_case["config"].pop("image_processor_type", None)
    except ImportError:
        sys.exit("transformers not importable: set PYTHONPATH to the transformers sources")
    with open(out_path, "w") as f:
        json.dump({"pillow": Image.__version__, "cases": cases, "processor": processor_case}, f)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
