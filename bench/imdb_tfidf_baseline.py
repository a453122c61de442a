"""The IMDB yardstick of issue 56: tf-idf on words and word pairs + logistic regression.

The `real` preset's classifier has to beat this on the same test split. The splits are the ones a
run carves from its training file, written by the program itself, so they cannot drift from it:
    build/app/attentionscope-cli split --task imdb --preset real --data imdb.csv --out SPLIT_DIR
    /usr/bin/python3 bench/imdb_tfidf_baseline.py SPLIT_DIR
Fitted on SPLIT_DIR/train.csv only (the vectorizer's vocabulary and idf included), C chosen by
accuracy on validation.csv only, and the chosen model scored once on test.csv, as a run chooses
its weights on validation and reports test. Prints one line per C tried, then
    imdb_tfidf_lr validation_accuracy=… test_accuracy=… C=… wall_s=… cpu_s=… train=… validation=…
    test=… features=…
wall_s is the whole script: reading, vectorizing, the grid and the test; cpu_s its processor
time, which a machine shared with other work does not stretch.
Needs scikit-learn (Debian: apt-get install python3-sklearn, then run Debian's /usr/bin/python3);
without it, says so and exits 77 (what ctest counts as a skip).
"""
import csv
import sys
import time

NAME = "imdb_tfidf_lr"
# Inverse regularisation strengths tried on validation: tf-idf rows have unit length, so the best
# C for ~20,000 reviews sits in the tens; the ends of the grid show when it does not.
C_GRID = (1, 2, 4, 8, 16, 32, 64, 128)


def read_split(path):
    """Texts and 0/1 labels of one file `attentionscope-cli split` wrote (text,label)."""
    csv.field_size_limit(1 << 30)
    texts, labels = [], []
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = csv.reader(f)
            if next(rows, None) != ["text", "label"]:
                sys.exit(f"{path}: expected the header text,label (written by attentionscope-cli split)")
            for row in rows:
                texts.append(row[0])
                labels.append(int(row[1]))
    except OSError as e:
        sys.exit(f"{path}: {e.strerror} (write the splits with attentionscope-cli split first)")
    if not texts:
        sys.exit(f"{path}: no samples")
    return texts, labels


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: imdb_tfidf_baseline.py SPLIT_DIR (train.csv, validation.csv, test.csv)")
    start, start_cpu = time.monotonic(), time.process_time()
    try:
        import numpy
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.metrics import accuracy_score
    except ImportError:
        print(f"imdb_tfidf_baseline.py: scikit-learn is missing for {sys.executable}: install "
              "Debian's (sudo apt-get install python3-sklearn) and run /usr/bin/python3",
              file=sys.stderr)
        sys.exit(77)
    folder = sys.argv[1]
    train_x, train_y = read_split(f"{folder}/train.csv")
    val_x, val_y = read_split(f"{folder}/validation.csv")
    test_x, test_y = read_split(f"{folder}/test.csv")

    # Words and word pairs, as the `real` preset's hashed bigrams; sublinear tf so that a word
    # repeated ten times does not count ten times; a pair seen in one review only is noise. Words
    # keep their apostrophes and one-letter words stay ("isn't good", "a must"), which
    # scikit-learn's default pattern splits or drops.
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, min_df=2,
                                 token_pattern=r"(?u)\b\w[\w']*\b", dtype=numpy.float32)
    train_m = vectorizer.fit_transform(train_x)
    val_m, test_m = vectorizer.transform(val_x), vectorizer.transform(test_x)

    best = None
    for c in C_GRID:
        model = LogisticRegression(C=c, solver="liblinear", max_iter=1000).fit(train_m, train_y)
        accuracy = accuracy_score(val_y, model.predict(val_m))
        print(f"{NAME} C={c} validation_accuracy={accuracy:.4f}", flush=True)
        if best is None or accuracy > best[0]:  # the first, smallest C among equals
            best = (accuracy, c, model)
    val_accuracy, c, model = best
    test_accuracy = accuracy_score(test_y, model.predict(test_m))
    print(f"{NAME} validation_accuracy={val_accuracy:.4f} test_accuracy={test_accuracy:.4f} "
          f"C={c} wall_s={time.monotonic() - start:.1f} cpu_s={time.process_time() - start_cpu:.1f} "
          f"train={len(train_y)} "
          f"validation={len(val_y)} test={len(test_y)} features={train_m.shape[1]}")


if __name__ == "__main__":
    main()
