"""A tiny chat model built in well under a second, loaded through the same code path as real ones:
a byte-level BPE tokenizer trained with `tokenizers` on a few hundred characters of report text and a
2-layer Qwen2 with random weights, saved as a transformers folder and as a GGUF file (gguf's writer,
llama.cpp tensor names). Its replies are noise: tests check formatting, parsing and guards, not wit."""
from __future__ import annotations

from pathlib import Path

CORPUS = [
    "问：星河精密2021年的营业收入是多少？\n答：{\"关键词\": [\"营业收入\"]}\n",
    "公司一直秉承致力健康事业的愿景，积极履行社会责任。本年度公司无重大诉讼、仲裁事项。",
    "研发投入合计 21,000,000.00 元，研发投入总额占营业收入比例 7.00%。流动比率 = 流动资产 / 流动负债。",
    "前五名客户销售额 12,600.00 万元，占年度销售总额 42.00%。0123456789 {}[]\":,",
]


def build_tiny_model(folder: Path, gguf_path: Path | None = None, seed: int = 0) -> Path:
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

    folder.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=600, special_tokens=["<|endoftext|>", "<|pad|>"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(CORPUS * 4, trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|endoftext|>", bos_token="<|endoftext|>",
                                   pad_token="<|pad|>")
    fast.save_pretrained(folder)
    torch.manual_seed(seed)
    cfg = Qwen2Config(vocab_size=tok.get_vocab_size(), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=2048,
                      tie_word_embeddings=False, eos_token_id=0, bos_token_id=0, pad_token_id=1)
    model = Qwen2ForCausalLM(cfg).eval()
    model.save_pretrained(folder)
    if gguf_path is not None:
        write_gguf(model, tok, gguf_path)
    return folder


def write_gguf(model, tok, path: Path) -> Path:
    import gguf

    cfg = model.config
    w = gguf.GGUFWriter(str(path), "qwen2")
    w.add_context_length(cfg.max_position_embeddings)
    w.add_embedding_length(cfg.hidden_size)
    w.add_block_count(cfg.num_hidden_layers)
    w.add_feed_forward_length(cfg.intermediate_size)
    w.add_head_count(cfg.num_attention_heads)
    w.add_head_count_kv(cfg.num_key_value_heads)
    w.add_rope_freq_base(float(getattr(cfg, "rope_theta", None) or cfg.rope_parameters["rope_theta"]))
    w.add_layer_norm_rms_eps(cfg.rms_norm_eps)
    w.add_file_type(gguf.LlamaFileType.ALL_F32)
    vocab = tok.get_vocab()
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    w.add_tokenizer_model("gpt2")
    w.add_tokenizer_pre("qwen2")
    w.add_token_list(tokens)
    w.add_token_types([gguf.TokenType.CONTROL if t.startswith("<|") else gguf.TokenType.NORMAL for t in tokens])
    import json

    merges = json.loads(tok.to_str())["model"]["merges"]
    w.add_token_merges([" ".join(m) if isinstance(m, list) else m for m in merges])
    w.add_bos_token_id(0)
    w.add_eos_token_id(0)
    w.add_pad_token_id(1)
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.QWEN2, cfg.num_hidden_layers)
    for name, tensor in model.state_dict().items():
        new = names.get_name(name, try_suffixes=(".weight", ".bias"))
        if new is None:
            raise ValueError(f"no GGUF name for {name}")
        w.add_tensor(new, tensor.detach().float().numpy())
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path
