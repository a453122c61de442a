#!/usr/bin/env python3
"""Writes the tiny Hugging Face BERT and ViT fixtures for the engine's parity tests.

Usage (from the repository root):

    PYTHONPATH=/work/shared/hf/site HF_HUB_OFFLINE=1 /usr/bin/python3 \
        scripts/generate_hf_fixtures.py tests/fixtures/hf

Needs the transformers 4.26 sources (shared/hf/site) and Debian's python3-torch, python3-numpy and
python3-pil; no network. OUT_DIR gets:

  tiny_bert/      BertForSequenceClassification, F32 weights, vocab.txt + tokenizer config
  tiny_bert_f16/  the same model with its weights rounded to F16 (and stored as F16)
  tiny_vit/       ViTForImageClassification, F32 weights, preprocessor_config.json
  tiny_vit_bin/   the same ViT as save_pretrained writes it without safetensors: config.json and
                  pytorch_model.bin (a torch.save zip archive of a plain dict of tensors)
  ordered_state_dict.bin  torch.save(nn.Linear(2, 2).state_dict()): an OrderedDict, which
                  LibTorch's unpickler cannot read

Each folder holds config.json, model.safetensors (every entry of the model's state_dict, under the
same name) and reference.safetensors: the inputs and what transformers computes from them in
float32, eval mode: logits, hidden_states.0 ... hidden_states.N, attentions.0 ... attentions.N-1.
Token ids and masks are stored as F32 (small integers, exact) so that a float-only reader can read
every input. Everything is seeded: running it again gives the same bytes.

safetensors is written here by its documented layout rather than by the safetensors package (not
packaged for Debian 12): an 8-byte little-endian header length, a JSON header naming each tensor's
dtype, shape and [begin, end) byte offsets into the data that follows, padded with spaces to a
multiple of 8 bytes, then the raw little-endian tensor bytes.
"""

import json
import os
import shutil
import struct
import sys
import tempfile

import numpy as np
import torch
from transformers import (
    BertConfig,
    BertForSequenceClassification,
    BertTokenizer,
    ViTConfig,
    ViTForImageClassification,
    ViTImageProcessor,
)

SEED = 20240611

# Small but real WordPiece vocabulary: the five special tokens first (ids 0, 100, 101, ... of the
# real BERT are not needed; [PAD] = 0 is what the config's pad_token_id says).
SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
WORDS = (
    "the a an of to and in is it that was for on with as he she they we you i this his her "
    "at by be are not but from or have had has one all were there what so up out if about "
    "who which when can no more very good bad film movie story plot actor scene time great "
    "boring fun love hate cat dog sat mat ran fast slow red blue green big small quick brown "
    "fox jumps over lazy"
).split()
SUBWORDS = ["##s", "##ed", "##ing", "##ly", "##er", "##est", "##y", "##n", "##t", "##e", "##a",
            "##o", "."]
PUNCTUATION = [",", "!", "?", "'"]

SAFETENSORS_DTYPES = {
    torch.float32: ("F32", np.dtype("<f4")),
    torch.float16: ("F16", np.dtype("<f2")),
    torch.int64: ("I64", np.dtype("<i8")),
}


def write_safetensors(path, tensors):
    """Writes `tensors` (name -> torch.Tensor) as a safetensors file, entries sorted by name."""
    header = {"__metadata__": {"format": "pt"}}
    blobs = []
    offset = 0
    for name in sorted(tensors):
        tensor = tensors[name].detach().cpu().contiguous()
        if tensor.dtype not in SAFETENSORS_DTYPES:
            raise ValueError(f"{name}: dtype {tensor.dtype} is not written by this script")
        code, np_dtype = SAFETENSORS_DTYPES[tensor.dtype]
        blob = tensor.numpy().astype(np_dtype, copy=False).tobytes()
        header[name] = {
            "dtype": code,
            "shape": list(tensor.shape),
            "data_offsets": [offset, offset + len(blob)],
        }
        blobs.append(blob)
        offset += len(blob)
    header_bytes = json.dumps(header, separators=(",", ":")).encode("utf-8")
    header_bytes += b" " * (-len(header_bytes) % 8)
    with open(path, "wb") as out:
        out.write(struct.pack("<Q", len(header_bytes)))
        out.write(header_bytes)
        for blob in blobs:
            out.write(blob)


def randomise_(model, generator):
    """Gives every bias and LayerNorm parameter a non-trivial value.

    transformers initialises biases to 0 and LayerNorm to (1, 0); a loader that swapped two biases
    or forgot a LayerNorm would still pass with those, so the fixtures use values that differ.
    """
    with torch.no_grad():
        for name, parameter in model.named_parameters():
            if "LayerNorm" in name or "layernorm" in name:
                base = 1.0 if name.endswith("weight") else 0.0
                noise = torch.randn(parameter.shape, generator=generator) * 0.1
                parameter.copy_(base + noise)
            elif name.endswith("bias"):
                parameter.copy_(torch.randn(parameter.shape, generator=generator) * 0.1)


def forward_outputs(outputs):
    """logits, hidden_states.i and attentions.i of a transformers output."""
    result = {"logits": outputs.logits}
    for i, hidden in enumerate(outputs.hidden_states):
        result[f"hidden_states.{i}"] = hidden
    for i, attention in enumerate(outputs.attentions):
        result[f"attentions.{i}"] = attention
    return result


def save_config(model, folder):
    # model.save_pretrained would also write pytorch_model.bin; only its config.json is wanted.
    model.config.architectures = [model.__class__.__name__]
    model.config.save_pretrained(folder)


def write_vocab(path):
    tokens = SPECIAL_TOKENS + WORDS + SUBWORDS + PUNCTUATION
    assert len(tokens) == len(set(tokens)), "duplicate vocabulary entry"
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(tokens) + "\n")
    return len(tokens)


def bert_inputs(tokenizer):
    """Two rows of different lengths, padded: a single sentence and a sentence pair (so that
    token_type_ids holds ones), with an unknown word and a sub-word split in them."""
    first = tokenizer("the quick brown fox jumps.")
    second = tokenizer("she loved the boring film, it was very good!",
                       "they hated the movies slowly")
    batch = tokenizer.pad([first, second], padding=True, return_tensors="pt")
    assert batch["attention_mask"][0].sum() < batch["attention_mask"][1].sum()
    return batch


def bert_model(vocab_size):
    config = BertConfig(
        vocab_size=vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=37,
        hidden_act="gelu",
        hidden_dropout_prob=0.1,
        attention_probs_dropout_prob=0.1,
        max_position_embeddings=64,
        type_vocab_size=2,
        initializer_range=0.2,
        layer_norm_eps=1e-12,
        pad_token_id=0,
        position_embedding_type="absolute",
        num_labels=2,
    )
    torch.manual_seed(SEED)
    model = BertForSequenceClassification(config)
    generator = torch.Generator().manual_seed(SEED + 1)
    randomise_(model, generator)
    return model.eval()


def run_bert(model, batch):
    with torch.no_grad():
        outputs = model(
            input_ids=batch["input_ids"],
            token_type_ids=batch["token_type_ids"],
            attention_mask=batch["attention_mask"],
            output_hidden_states=True,
            output_attentions=True,
        )
    reference = {
        "input_ids": batch["input_ids"].float(),
        "token_type_ids": batch["token_type_ids"].float(),
        "attention_mask": batch["attention_mask"].float(),
    }
    reference.update(forward_outputs(outputs))
    return reference


def write_bert(out_dir):
    folder = os.path.join(out_dir, "tiny_bert")
    os.makedirs(folder, exist_ok=True)
    vocab_path = os.path.join(folder, "vocab.txt")
    vocab_size = write_vocab(vocab_path)
    tokenizer = BertTokenizer(vocab_path, do_lower_case=True, model_max_length=64)
    tokenizer.save_pretrained(folder)

    model = bert_model(vocab_size)
    batch = bert_inputs(tokenizer)
    save_config(model, folder)
    write_safetensors(os.path.join(folder, "model.safetensors"), model.state_dict())
    write_safetensors(os.path.join(folder, "reference.safetensors"), run_bert(model, batch))

    # The same model with F16 weights: the reference is what the rounded weights compute in
    # float32, so a reader that widens F16 exactly still matches to 1e-5.
    half_folder = os.path.join(out_dir, "tiny_bert_f16")
    os.makedirs(half_folder, exist_ok=True)
    half_state = {}
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            if tensor.is_floating_point():
                half = tensor.half()
                tensor.copy_(half.float())  # the float32 model now holds the rounded weights
                half_state[name] = half
            else:
                half_state[name] = tensor
    save_config(model, half_folder)
    write_safetensors(os.path.join(half_folder, "model.safetensors"), half_state)
    write_safetensors(os.path.join(half_folder, "reference.safetensors"), run_bert(model, batch))


def vit_images(generator):
    """Two 32x32 RGB images (H, W, C) as uint8: smooth gradients with noise on top, so patches
    differ from one another."""
    ys, xs = torch.meshgrid(torch.arange(32.0), torch.arange(32.0), indexing="ij")
    images = []
    for phase in (0.0, 1.7):
        red = 127.5 + 127.5 * torch.sin(xs / 5.0 + phase)
        green = 127.5 + 127.5 * torch.cos(ys / 7.0 - phase)
        blue = (xs + ys) * 4.0
        image = torch.stack([red, green, blue], dim=-1)
        image = image + torch.randn(image.shape, generator=generator) * 20.0
        images.append(image.clamp(0, 255).round().to(torch.uint8))
    return torch.stack(images)  # (2, 32, 32, 3)


def write_vit(out_dir):
    folder = os.path.join(out_dir, "tiny_vit")
    os.makedirs(folder, exist_ok=True)
    config = ViTConfig(
        image_size=32,
        patch_size=8,
        num_channels=3,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=37,
        hidden_act="gelu",
        hidden_dropout_prob=0.1,
        attention_probs_dropout_prob=0.1,
        initializer_range=0.2,
        layer_norm_eps=1e-12,
        qkv_bias=True,
        num_labels=10,
    )
    torch.manual_seed(SEED + 2)
    model = ViTForImageClassification(config)
    generator = torch.Generator().manual_seed(SEED + 3)
    randomise_(model, generator)
    model.eval()

    processor = ViTImageProcessor(size={"height": 32, "width": 32})
    processor.save_pretrained(folder)
    images = vit_images(generator)
    pixel_values = processor([image.numpy() for image in images], return_tensors="pt")[
        "pixel_values"
    ]
    with torch.no_grad():
        outputs = model(pixel_values=pixel_values, output_hidden_states=True,
                        output_attentions=True)
    reference = {"images": images.float(), "pixel_values": pixel_values}
    reference.update(forward_outputs(outputs))

    save_config(model, folder)
    write_safetensors(os.path.join(folder, "model.safetensors"), model.state_dict())
    write_safetensors(os.path.join(folder, "reference.safetensors"), reference)

    # transformers' own writer, so that the file is what the hub's older folders hold.
    bin_folder = os.path.join(out_dir, "tiny_vit_bin")
    os.makedirs(bin_folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as saved:
        model.save_pretrained(saved)
        shutil.copyfile(os.path.join(saved, "pytorch_model.bin"),
                        os.path.join(bin_folder, "pytorch_model.bin"))
    save_config(model, bin_folder)


def write_ordered_dict_bin(out_dir):
    """A module's state_dict saved as it is (an OrderedDict with _metadata), as older checkpoints
    were: LibTorch's unpickler cannot read it, and the reader must say so."""
    torch.manual_seed(SEED + 4)
    torch.save(torch.nn.Linear(2, 2).state_dict(), os.path.join(out_dir, "ordered_state_dict.bin"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: generate_hf_fixtures.py OUT_DIR")
    out_dir = sys.argv[1]
    torch.set_num_threads(1)  # the same sums in the same order on every machine
    write_bert(out_dir)
    write_vit(out_dir)
    write_ordered_dict_bin(out_dir)
    for root, _, files in sorted(os.walk(out_dir)):
        for name in sorted(files):
            path = os.path.join(root, name)
            print(f"{os.path.getsize(path):8d}  {path}")


if __name__ == "__main__":
    main()
