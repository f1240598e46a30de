// SPDX-License-Identifier: MIT OR Apache-2.0
// issue 31 item 5: the core's notices (amn::Notice) in amn's words
// (app/amn/notice_words.cc). Every NoticeKind has words, so a new kind
// without them fails here; the words are the English amn printed before the
// notices were typed (the sentences the core built itself, rebuilt here from
// their parts), byte for byte.
#include "../../app/amn/notice_words.hpp"

#include <QtTest>

#include <string>

using amn::Notice;
using amn::NoticeKind;
using amn::cli::notice_text;

class TestNoticeWords : public QObject {
    Q_OBJECT
private slots:
    void everyKindHasWords() {
        for (int k = 0; k < amn::kNoticeKinds; ++k) {
            Notice n;
            n.kind = static_cast<NoticeKind>(k);
            n.file = "config.json";
            n.tensor = "model.layers.0.mlp.up_proj.weight";
            n.key = "bits";
            n.count = 3;
            n.detail = "detail";
            n.found = "fp8";
            QVERIFY2(!notice_text(n).empty(), qPrintable(QString("NoticeKind %1 has no words").arg(k)));
        }
    }

    void sameEnglishAsBefore() {
        const std::string path = "/m/config.json";
        Notice dup{.kind = NoticeKind::DuplicateKey, .file = path, .key = "quantization_config.bits"};
        QCOMPARE(notice_text(dup), path + ": key \"quantization_config.bits\" occurs more than once; the last one is used, as "
                                          "Python's json (and so transformers) reads it");
        dup.key = "torch_dtype";
        dup.count = 2;
        QCOMPARE(notice_text(dup),
                 path + ": key \"torch_dtype\" occurs 2 times; the last one is used, as Python's json (and so transformers) reads it");

        Notice qm{.kind = NoticeKind::QuantMethodMismatch, .file = path, .detail = "gptq"};
        QCOMPARE(notice_text(qm), path + ": quantization_config.quant_method is \"gptq\", but no tensor is quantized that way "
                                         "(nor any other): believed the tensors, which are copied as stored");
        qm.found = "fp8";
        qm.found_words = "FP8 E4M3, 128×128 blocks, F32 scales";
        QCOMPARE(notice_text(qm), path + ": quantization_config.quant_method is \"gptq\", but the tensors are fp8 (FP8 E4M3, "
                                         "128×128 blocks, F32 scales): believed the tensors, dequantized as fp8");
        qm.file.clear();
        qm.found_words.clear();
        QCOMPARE(notice_text(qm), std::string("the quantization config: quantization_config.quant_method is \"gptq\", but the "
                                              "tensors are fp8: believed the tensors, dequantized as fp8"));

        const Notice fmt{.kind = NoticeKind::FormatMismatch, .file = path, .detail = "e5m2", .found = "F8_E4M3"};
        QCOMPARE(notice_text(fmt), path + ": quantization_config.fmt is \"e5m2\", but the FP8 weights are stored as F8_E4M3: "
                                          "believed the tensors' dtype, which decides the decoding");
        const Notice block{.kind = NoticeKind::BlockSizeIgnored, .file = path, .detail = "weight_block_size has 3 entries, not [rows, cols]"};
        QCOMPARE(notice_text(block), path + ": weight_block_size has 3 entries, not [rows, cols]; ignored: no FP8 weight here "
                                            "has block scales (believed the scale shapes)");

        QCOMPARE(notice_text({.kind = NoticeKind::KeysNotCarried, .key = "llama", .detail = "llama.foo, llama.bar"}),
                 std::string("not carried into config.json (no equivalent for llama here): llama.foo, llama.bar"));
        QCOMPARE(notice_text({.kind = NoticeKind::NoTokenizer}),
                 std::string("no tokenizer written: the GGUF has no tokenizer.ggml.model"));
        QCOMPARE(notice_text({.kind = NoticeKind::NoTokenizer, .detail = "tokenizer.ggml.pre 'dbrx' is not known"}),
                 std::string("no tokenizer written: tokenizer.ggml.pre 'dbrx' is not known"));
        QCOMPARE(notice_text({.kind = NoticeKind::NoTokenizerModel, .detail = "token 500 is empty"}),
                 std::string("no tokenizer.model written (tokenizer.json is): token 500 is empty"));

        QCOMPARE(notice_text({.kind = NoticeKind::Requantized}),
                 std::string("re-quantizing tensors that were already quantized compounds their error "
                             "(start from F32/F16/BF16 when you can)"));
        QCOMPARE(notice_text({.kind = NoticeKind::Requantized, .count = 14}),
                 std::string("14 tensor(s) are already quantized in the input: re-quantizing compounds their error "
                             "(start from F32/F16/BF16 when you can)"));
        QCOMPARE(notice_text({.kind = NoticeKind::NonFiniteDequantized, .tensor = "w", .count = 384}),
                 std::string("w: 384 value(s) dequantize to a non-finite number (left out of the loss)"));
        QCOMPARE(notice_text({.kind = NoticeKind::NonFinite, .tensor = "w", .count = 2}), std::string("w: 2 value(s) are not finite (NaN/±inf)"));
        QCOMPARE(notice_text({.kind = NoticeKind::NonFinite, .tensor = "w", .count = 2, .loss_measured = true}),
                 std::string("w: 2 value(s) or their round trip are not finite (left out of the loss)"));
        QCOMPARE(notice_text({.kind = NoticeKind::ConverterLog, .detail = "Model fails split requirements, not splitting"}),
                 std::string("Model fails split requirements, not splitting"));
        QCOMPARE(notice_text({.kind = NoticeKind::AlreadyQuantized, .detail = "gptq-4bit"}),
                 std::string("the input is already quantized (gptq-4bit): pass --requantize to decode it and quantize again "
                             "(the errors compound), or start from the BF16/F16/F32 model"));
    }
};

QTEST_MAIN(TestNoticeWords)
#include "test_notice_words.moc"
