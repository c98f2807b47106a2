"""An MLP trained on scikit-learn's digits, as ONNX, with calibration and test data: a real classifier whose
int8 accuracy the quantization and Android bundle tests check."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier


def digits_model(seed: int = 0) -> tuple[onnx.ModelProto, np.ndarray, np.ndarray, np.ndarray]:
    """An MLP (64-384-192-10) trained on scikit-learn's digits, as ONNX; plus calib and test data."""
    X, y = load_digits(return_X_y=True)
    X = (X / 16.0).astype(np.float32)
    Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.3, random_state=seed, stratify=y)
    clf = MLPClassifier(hidden_layer_sizes=(384, 192), max_iter=300, random_state=seed).fit(Xtr, ytr)
    inits, nodes, cur = [], [], "x"
    for i, (W, b) in enumerate(zip(clf.coefs_, clf.intercepts_)):
        inits += [numpy_helper.from_array(W.astype(np.float32), f"W{i}"),
                  numpy_helper.from_array(b.astype(np.float32), f"b{i}")]
        nodes.append(helper.make_node("Gemm", [cur, f"W{i}", f"b{i}"], [f"z{i}"], name=f"fc{i}"))
        cur = f"z{i}"
        if i < len(clf.coefs_) - 1:
            nodes.append(helper.make_node("Relu", [cur], [f"h{i}"], name=f"relu{i}"))
            cur = f"h{i}"
    nodes.append(helper.make_node("Softmax", [cur], ["probs"], name="softmax", axis=1))
    g = helper.make_graph(nodes, "digits_mlp", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 64])],
                          [helper.make_tensor_value_info("probs", TensorProto.FLOAT, [1, 10])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(m)
    return m, Xtr[:128], Xte, yte
