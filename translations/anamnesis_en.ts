<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
    <context>
        <name>amn::ui::BitsFigure</name>
        <message>
            <source>bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>bpw</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::BreakdownChart</name>
        <message>
            <source>%1 in total</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 — %2 (%3)</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%1
%2 of %3 (%4), %Ln tensor(s)</source>
            <translation>
                <numerusform>%1
%2 of %3 (%4), %Ln tensor</numerusform>
                <numerusform>%1
%2 of %3 (%4), %Ln tensors</numerusform>
            </translation>
        </message>
        <message>
            <source> — %1, %2 (%3)</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::ConvertWizard</name>
        <message>
            <source>Convert %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Convert</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&lt; &amp;Back</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Next &gt;</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Finish</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Conversion running</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A conversion is still running. Cancel it? No partial file is left behind.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel Conversion</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Keep Running</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Source</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scheme: none (unquantized tensors are cast or copied).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scheme: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Target</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Automatic: dequantized tensors as BF16, the others keep their dtype (lossless)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Every float tensor as &amp;BF16 safetensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Every float tensor as &amp;F16 safetensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Every float tensor as F&amp;32 safetensors (exact dequantized values, twice the size)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Integer and boolean tensors are always copied unchanged. Quantization companions (scales, zero points) are consumed and not written.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Options</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Where to write. Output goes to a temporary file first and is renamed when complete.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Browse…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>O&amp;verwrite existing files</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Output file</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Summary</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Check, then convert.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Converting</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Runs in the background on all cores. Cancel stops within a second and leaves no partial file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Done</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model is remembered.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Open the result in anamnesis</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose an output path.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 exists. Tick “Overwrite existing files” or choose another path.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 safetensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>safetensors, dequantized tensors as BF16, others unchanged</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Output</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source> (overwrite)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 written, %2 dequantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Predicted size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of tensor data (input: %2)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 free on %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>— not enough space</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Disk space</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Starting…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of %2 written — %3/s — %4 left</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Wrote %1 in %2 s.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancelled. No output file was written.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Conversion failed</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancelling…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model to convert.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remember (dequantize) to safetensors, or forget (quantize) to GGUF or a safetensors scheme.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remember</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Forget</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;GGUF file type (as llama-quantize):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (needs an importance matrix)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Safetensors scheme (transformers, vLLM):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Forgetting measures what is lost: after the run, the error of every tensor (RMSE, SQNR).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Output (a file, or a folder):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF options</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Pure: the file type's type for every quantized tensor (--pure)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>by the file type's rules</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Output tensor type:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Token embedding type:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>REGEX=TYPE; … e.g. attn_v=Q8_0</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>--tensor-type: the first pattern found in a tensor's name gives its type. Separate several with “;”.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Tensor types:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>none</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Importance matrix:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Importance matrix</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Importance matrix (*.gguf *.dat);;All files (*)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scheme options</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Block size (bnb-nf4, bnb-fp4):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Double quant: absmax quantized to 8 bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>channel (FP8_DYNAMIC)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>tensor (FP8)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>block 128×128 (FP8_BLOCK)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Granularity (fp8):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Power-of-two scales (ue8m0)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>channel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>REGEX; … tensors never quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Keep:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Re-quantize an already quantized input (the errors compound)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF (*.gguf)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>safetensors (*.safetensors);;All files (*)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Shape</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Written as</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Bits/weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Why</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Try again</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open output fo&amp;lder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>RMSE</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Max abs error</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>SQNR (dB)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model has forgotten; here is what it lost.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 needs an importance matrix: choose one (llama-imatrix output).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The importance matrix %1 does not exist.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF %1 (llama-quantize file type)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>safetensors, %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Estimated size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of tensor data (input: %2), %3 bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot forget</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>planning every tensor's type…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>exact</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Written:
%1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Warning: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>REGEX; … quantize exactly the 2-D weights matching</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>O&amp;nly:</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%1, %Ln file(s), %2 — %3, %4 parameters</source>
            <translation>
                <numerusform>%1, %Ln file, %2 — %3, %4 parameters</numerusform>
                <numerusform>%1, %Ln files, %2 — %3, %4 parameters</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln output tensor(s)</source>
            <translation>
                <numerusform>%Ln output tensor</numerusform>
                <numerusform>%Ln output tensors</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) cannot be converted, for example:
%1</source>
            <translation>
                <numerusform>%Ln tensor cannot be converted, for example:
%1</numerusform>
                <numerusform>%Ln tensors cannot be converted, for example:
%1</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s), %1 re-encoded</source>
            <translation>
                <numerusform>%Ln tensor, %1 re-encoded</numerusform>
                <numerusform>%Ln tensors, %1 re-encoded</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Remembered %Ln tensor(s), %1 of tensor data, in %2 s.</source>
            <translation>
                <numerusform>Remembered %Ln tensor, %1 of tensor data, in %2 s.</numerusform>
                <numerusform>Remembered %Ln tensors, %1 of tensor data, in %2 s.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Forgot %Ln tensor(s) to %1: %2 bits per weight, %3 written in %4 s.</source>
            <translation>
                <numerusform>Forgot %Ln tensor to %1: %2 bits per weight, %3 written in %4 s.</numerusform>
                <numerusform>Forgot %Ln tensors to %1: %2 bits per weight, %3 written in %4 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>One safetensors fi&amp;le (GGUF tensor names)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Hugging Face folder (config.json + safetensors, transformers names)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As amn remember --layout hf: a folder transformers can load, with llama.cpp's Q/K permutation undone.</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… and %Ln more</numerusform>
                <numerusform>… and %Ln more</numerusform>
            </translation>
        </message>
        <message>
            <source>Layout</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hugging Face folder for %1 (%2): config.json + safetensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Target names</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot convert</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hugging Face folder (config.json + safetensors, transformers names)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Hugging Face folder: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The plan could not be made.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The chosen options do not fit this model.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The chosen options do not fit tensor %1.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensor %1 cannot be converted this way.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model is already quantized: tick “Re-quantize an already quantized input”, or start from the BF16/F16/F32 model.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>anamnesis cannot make this conversion of this model yet.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A tensor's size does not fit the chosen type's blocks.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The size of tensor %1 does not fit the chosen type's blocks.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model holds a data type anamnesis does not know.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A file the options name could not be read (missing, or no permission?).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A file the plan reads is damaged, or not of the kind expected.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A quantized tensor lacks the scales it needs, or they do not fit.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>There is not enough memory to plan the conversion.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The conversion failed.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The output could not be written (is the folder writable, is the disk full?).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The output exists already: tick “Overwrite existing files” or choose another path.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensor %1 holds something this conversion cannot take.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model's data could not be read as its header declares: the file may have changed since it was opened, or be damaged.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>There is not enough memory for the conversion.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No output file was written.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remember (dequantize) to safetensors, convert to GGUF for llama.cpp, or forget (quantize) to a safetensors scheme.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;GGUF file type (as llama-quantize, in one pass):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF for llama.cpp</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As convert_hf_to_gguf.py &amp;writes it:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As amn convert --to gguf:TYPE: the bytes llama.cpp's converter writes.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>auto</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>auto (%1 for this model)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As amn forget --to gguf:FTYPE: the converter's lossless output quantized by llama-quantize's rules, without the intermediate file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF output needs a GGUF input or a Hugging Face folder (config.json beside the safetensors).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model is a GGUF for llama.cpp now.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF %1 (as convert_hf_to_gguf.py + llama-quantize, in one pass)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF %1 (as convert_hf_to_gguf.py --outtype %2)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>Converted %Ln tensor to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.</numerusform>
                <numerusform>Converted %Ln tensors to GGUF %1 as convert_hf_to_gguf.py writes it: %2 written in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>Group size (w4a16, w8a16, mlx):</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The vision projector is a GGUF for llama.cpp now (mmproj).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The adapter is a GGUF LoRA adapter for llama.cpp now.</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>Converted %Ln tensor to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: %2 written in %3 s.</numerusform>
                <numerusform>Converted %Ln tensors to a GGUF vision projector (mmproj) %1 as convert_hf_to_gguf.py --mmproj writes it: %2 written in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>llama.cpp loads it beside the text model: llama-mtmd-cli -m MODEL.gguf --mmproj %1</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Converted %Ln tensor(s) to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s.</source>
            <translation>
                <numerusform>Converted %Ln tensor to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s.</numerusform>
                <numerusform>Converted %Ln tensors to a GGUF LoRA adapter %1 as convert_lora_to_gguf.py writes it: %2 written in %3 s.</numerusform>
            </translation>
        </message>
        <message>
            <source>llama.cpp applies it to the base model: llama-cli -m BASE.gguf --lora %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>LoRA adapter options</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>the base model's folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Base model:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Only the base model's config.json is read: its architecture names the adapter's tensors in GGUF (as convert_lora_to_gguf.py --base). The base's weights are not needed.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Base model folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Choose the base model's folder (the one holding its config.json).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 holds no config.json: choose the base model's folder.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF vision projector (mmproj) %1 (as convert_hf_to_gguf.py --mmproj --outtype %2)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF LoRA adapter %1 (as convert_lora_to_gguf.py --outtype %2)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Base model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (its config.json)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Vision projector (mmproj) instead of the text model, as --mmproj writes it</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As amn convert --to gguf:TYPE --mmproj: the vision tower and projector llama-mtmd-cli loads beside the text GGUF (--mmproj FILE).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF LoRA adapter for llama.cpp</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF &amp;LoRA adapter, as convert_lora_to_gguf.py writes it:</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As amn convert ADAPTER --to gguf:TYPE --base BASE: the adapter llama.cpp loads with --lora. The base model's folder is chosen on the next page.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Rank %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Rank not given</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>alpha %1</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln adapted module(s)</source>
            <translation>
                <numerusform>%Ln adapted module</numerusform>
                <numerusform>%Ln adapted modules</numerusform>
            </translation>
        </message>
        <message>
            <source>trained on %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot become a GGUF adapter: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No vision projector: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tokenizer files alone (a vocab-only GGUF, %1): %2</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::HistogramChart</name>
        <message>
            <source>No statistics yet</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>dequantized value</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>count</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>[%1, %2): %3 values</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>count (log scale)</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::LetheChart</name>
        <message>
            <source>Lethe took %1 of %2 (%3): stored bits per weight by layer</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Nothing is quantized: every tensor keeps its stored precision</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>quantized layer</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>full precision</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>BF16 = 16 bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>layer (hover a bar for its tensors)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No tensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 bits per weight (BF16: 16)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>stored %1, as BF16 %2, saved %3</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>saved %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>outside the numbered layers</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>other</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>&lt;b&gt;%1&lt;/b&gt; — %Ln tensor(s)</source>
            <translation>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %Ln tensor</numerusform>
                <numerusform>&lt;b&gt;%1&lt;/b&gt; — %Ln tensors</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… and %Ln more</numerusform>
                <numerusform>… and %Ln more</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::LossChart</name>
        <message>
            <source>Measured loss per tensor: SQNR (higher is better), mean %1 dB</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>mean</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>SQNR (dB)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No tensor was quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 dB</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>exact</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, %3 bits per weight&lt;br&gt;RMSE %4, SQNR %5</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) in file order (hover a bar for its name)</source>
            <translation>
                <numerusform>%Ln tensor in file order (hover a bar for its name)</numerusform>
                <numerusform>%Ln tensors in file order (hover a bar for its name)</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::MainWindow</name>
        <message>
            <source>anamnesis</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Conversion running</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A conversion is still running. Cancel it and quit? No partial file is left behind.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel and Quit</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Keep Running</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;File</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Open…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open &amp;Folder…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open model folder</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open &amp;Recent</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Convert…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Close Tab</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Find Tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copy Tensor &amp;Name</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copied %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;View</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Overview</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>What &amp;Lethe Took</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Metadata</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Next Model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Help</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;About anamnesis</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>About anamnesis</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>(none)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Clear List</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Opening %1…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Could not open %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Could not open model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 could not be opened.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Close</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 — anamnesis</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remember (dequantize) or forget (quantize) the current model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Main Toolbar</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&lt;h3&gt;anamnesis %1&lt;/h3&gt;&lt;p&gt;Parse any tensor format, recover any precision.&lt;/p&gt;&lt;p&gt;Inspect quantized model files, remember (dequantize) and forget (quantize) them.&lt;/p&gt;&lt;p&gt;Licence: MIT OR Apache-2.0&lt;/p&gt;&lt;p&gt;Built with Qt %2 (running on Qt %3).&lt;/p&gt;</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>About &amp;Qt</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file could not be read as a model.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file could not be read (missing, or no permission?).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file is incomplete — it ends too early (a partial download?).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file is incomplete — it ends before tensor %1's data (a partial download?).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file is damaged, or not a model file of the kind its name says.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file declares more than anamnesis accepts (a safety limit).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file uses something anamnesis does not support yet.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A quantized tensor lacks the scales it needs, or they do not fit.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file contains Python code that is not safe to load; it was not run.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>This is not a regular file or model folder.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>There is not enough memory to open the file.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The file could not be opened.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>Opened %1: %Ln tensor(s) in %2 ms</source>
            <translation>
                <numerusform>Opened %1: %Ln tensor in %2 ms</numerusform>
                <numerusform>Opened %1: %Ln tensors in %2 ms</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln model(s) could not be opened.</source>
            <translation>
                <numerusform>%Ln model could not be opened.</numerusform>
                <numerusform>%Ln models could not be opened.</numerusform>
            </translation>
        </message>
        <message>
            <source>&lt;h2&gt;Drop a model here&lt;/h2&gt;&lt;p&gt;safetensors (also sharded, or a folder), GGUF, NPY/NPZ, PyTorch .pth, ONNX&lt;/p&gt;&lt;p&gt;or use &lt;b&gt;File ▸ Open&lt;/b&gt; (%1). Opening reads headers only.&lt;/p&gt;</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Model files (*.safetensors *.json *.gguf *.npz *.npy *.pth *.pt *.bin *.onnx);;All files (*)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open &amp;URL…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open URL</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A model file's URL (https://…) or a Hugging Face repository (hf://ORG/REPO[@REVISION][/PATH]).
Only its headers are downloaded; it opens read-only.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Not a URL: it must start with https://, http:// or hf://.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The server did not give the model (a gated or private repository, a missing token, a wrong address, or no connection: the details say which).</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Convert</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 is a remote model: only its headers were downloaded. Download it to convert it.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stop opening (a remote model's download stops at once)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Opening cancelled</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::MetadataValueDialog</name>
        <message>
            <source>Value of %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Copy</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::MetadataView</name>
        <message>
            <source>Filter keys and values</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Key</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Value</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>File metadata (%1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>quantization_config (%1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Notes</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>This file carries no metadata.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Pickle globals (%1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 — %2, referenced %3×</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>allowed</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>refused</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>error</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>array of %Ln string(s)</source>
            <translation>
                <numerusform>array of %Ln string</numerusform>
                <numerusform>array of %Ln strings</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>array of %Ln array(s)</source>
            <translation>
                <numerusform>array of %Ln array</numerusform>
                <numerusform>array of %Ln arrays</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>array of %Ln %1 value(s)</source>
            <translation>
                <numerusform>array of %Ln %1 value</numerusform>
                <numerusform>array of %Ln %1 values</numerusform>
            </translation>
        </message>
        <message>
            <source>Copy value</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Show full value…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Copy name</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::ModelView</name>
        <message>
            <source>Filter tensors (Ctrl+F)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Re&amp;gex</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Treat the filter as a regular expression</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Copy Name</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Expand All</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>C&amp;ollapse All</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Con&amp;vert…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Overview</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>What Lethe Took</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Metadata</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Invalid regular expression</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln tensor</numerusform>
                <numerusform>%Ln tensors</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::SchemeText</name>
        <message>
            <source>bitsandbytes LLM.int8, row-wise %1 absmax (SCB)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not measurable yet for %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not measurable: the tensor cannot be decoded</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not quantized: nothing to measure</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1×%2 blocks</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ModelOpt FP8 (%1), per-channel %2 scale applied in BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ModelOpt FP8 (%1), per-tensor %2 scale applied in BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-channel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-expert</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>group %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>compressed-tensors W8A%1 (float-quantized), FP8 %2, %3, %4 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-tensor scale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-channel scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-expert scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>group %1 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>FP8 (%1), %2, %3 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>asymmetric</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>symmetric</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>compressed-tensors W%1A%2 (%3), int%1 %4, %5</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, act-order</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, %1 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per-channel (no groups)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>AWQ GEMM %1-bit, %2, zero points, %3 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GPTQ %1-bit</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>, %Ln group(s)</source>
            <translation>
                <numerusform>, %Ln group</numerusform>
                <numerusform>, %Ln groups</numerusform>
            </translation>
        </message>
        <message>
            <source>, per-channel (no groups)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, group %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, symmetric</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, asymmetric</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, gptq_v2 zero points</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>bitsandbytes %1, blocksize %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, double-quant (nested blocksize %1)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, compute %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>GGUF %1 (%2-element blocks of %3 bytes, %4 bits per weight)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>E2M1 with an %1 scale per %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>compressed-tensors %1 W4A%2 (%3-pack-quantized), %4</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, %1 global scale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ModelOpt %1, %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ModelOpt %1, %2 and a %3 second-level scale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ModelOpt %1, %2 and an %3 second-level scale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (gpt-oss experts), %2, transformers' [E, in, out] layout</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1, %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>companion</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>passthrough</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>unsupported</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not quantized, kept %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>set by --token-embedding-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>set by --output-tensor-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>set by --tensor-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 default</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>--pure: the file type's type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>file type %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>; fallback: the row does not fit the type's blocks</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 mix rule</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not measurable for %1: ggml quantizes it only with an importance matrix, which the file does not carry</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not measurable for %1: a row is not a whole number of blocks</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>--outtype %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept %1 by the converter's rules</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot become a GGUF: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (%2), tokenizer %3 / %4, auto → %5</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Note: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>quantized: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: 1-D</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: fused 3-D experts (not nn.Linear weights: neither transformers' bitsandbytes nor llm-compressor quantizes them)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: not 2-D</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: not a weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: empty</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: not float</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: --keep</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: not matched by --only</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: Conv1D (llm-compressor quantizes nn.Linear only)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: embedding</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: norm</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: lm_head</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: router</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: not a block Linear</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source> (decoded to BF16)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>1-D tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not a weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>norm</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>set by --leave-output-tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>llama-quantize never quantizes “%1” tensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>position embeddings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>token types</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>output tensor: --output-tensor-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>token embeddings tied to the output: --output-tensor-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>the output tensor gets more bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>token embeddings tied to the output get more bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>expert tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not an expert tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>token embeddings: --token-embedding-type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>token embeddings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>attn_v gets more bits</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>attn_v of a 70B model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>attn_v of an 8-expert model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>attn_k of an 8-expert model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>attn_output of an 8-expert model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ffn_down of the first layers</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ffn_down of layer %1 of %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ffn_gate of a middle layer</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ffn_up of a middle layer</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1, kept %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>set by --tensor-type “%1”=%2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 default: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 mix rule, %2: %3</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>--pure: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>file type %1: %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 repacked as it is stored</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>; fallback: a row of %1 is not a multiple of %2 (%3) → %4</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s) are already quantized in the input: re-quantizing compounds their error (start from F32/F16/BF16 when you can)</source>
            <translation>
                <numerusform>%Ln tensor is already quantized in the input: re-quantizing compounds its error (start from F32/F16/BF16 when you can)</numerusform>
                <numerusform>%Ln tensors are already quantized in the input: re-quantizing compounds their error (start from F32/F16/BF16 when you can)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) or their round trip are not finite (left out of the loss)</source>
            <translation>
                <numerusform>%1: %Ln value or its round trip is not finite (left out of the loss)</numerusform>
                <numerusform>%1: %Ln values or their round trip are not finite (left out of the loss)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) are not finite (NaN/±inf)</source>
            <translation>
                <numerusform>%1: %Ln value is not finite (NaN/±inf)</numerusform>
                <numerusform>%1: %Ln values are not finite (NaN/±inf)</numerusform>
            </translation>
        </message>
        <message>
            <source>FP8 (%1), %2, %3 scales (powers of two, UE8M0)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>MLX affine %1-bit, group %2, %3 scales and biases</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>MLX MXFP4, E2M1 with an E8M0 scale per %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>MLX NVFP4, E2M1 with an E4M3 scale per %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>MLX MXFP8, E4M3 with an E8M0 scale per %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>kept: the group size does not divide its rows</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ONNX %1, %2, block %3, %4 absmax</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>per axis %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>block %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>ONNX %1, %2 %3-bit, %4, %5 scales</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>lossless: the input's codes and scales repacked</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>re-quantized: the input's codes are of another kind, width or group size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>re-quantized: a scale or bias of the input is not exact in F16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>re-quantized: the input's biases are not −2^(bits−1)·scale, as %1 has them</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>re-quantized: a negative E4M3 scale (GGUF's are unsigned)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>lossless repack</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>the quantization config</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>re-quantizing tensors that were already quantized compounds their error (start from F32/F16/BF16 when you can)</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%1: %Ln value(s) dequantize to a non-finite number (left out of the loss)</source>
            <translation>
                <numerusform>%1: %Ln value dequantizes to a non-finite number (left out of the loss)</numerusform>
                <numerusform>%1: %Ln values dequantize to a non-finite number (left out of the loss)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so transformers) reads it</source>
            <translation>
                <numerusform>%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so transformers) reads it</numerusform>
                <numerusform>%1: key “%2” occurs %Ln times; the last one is used, as Python's json (and so transformers) reads it</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: key “%2” occurs more than once; the last one is used, as Python's json (and so transformers) reads it</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: quantization_config.quant_method is “%2”, but no tensor is quantized that way (nor any other): the tensors are believed and copied as stored</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: quantization_config.quant_method is “%2”, but the tensors are %3%4: the tensors are believed, dequantized as %3</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: quantization_config.fmt is “%2”, but the FP8 weights are stored as %3: the tensors' dtype is believed, it decides the decoding</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1: %2; ignored: no FP8 weight here has block scales (the scale shapes are believed)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not carried into config.json (no equivalent for %1 here): %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no tokenizer written: the GGUF has no tokenizer.ggml.model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no tokenizer written: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no tokenizer.model written (tokenizer.json is): %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>The model is already quantized (%1): tick “Re-quantize an already quantized input”, or start from the BF16/F16/F32 model.</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln quantized tensor(s)</source>
            <translation>
                <numerusform>%Ln quantized tensor</numerusform>
                <numerusform>%Ln quantized tensors</numerusform>
            </translation>
        </message>
        <message>
            <source>a data type anamnesis does not know</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>stored in a layout anamnesis cannot decode</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>a tensor it needs (scales, zero points …) is missing</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>its tensors do not fit together (type, shape or values)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>a variant of its scheme anamnesis does not support yet</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>the quantization config is malformed or contradicts the tensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>a quantization scheme anamnesis cannot dequantize</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot be converted: %1 — %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cannot be converted: %1 — %2: %3</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, act order (g_idx)</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::Shape</name>
        <message>
            <source>scalar</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::SummaryView</name>
        <message>
            <source>Stored bytes by dtype</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>not convertible</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>unquantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>companions not written</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored bytes by scheme</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Format</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scheme</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>none: the tensors are not quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Config</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>quant_method "%1" in %2</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Tensors</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Parameters</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (%2 quantized)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 now → %2 as BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Lethe took</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 of %2 (%3) — %4 bits per weight instead of 16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>nothing: no tensor is quantized</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Opened in</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 ms (headers only)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Not convertible</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Notes</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Pickle scan</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Con&amp;vert…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Remember (dequantize) or forget (quantize) this model</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Architecture</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Name</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Size label</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Context length</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>File type</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>unknown</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 stored: %2 quantized, %3, %4 passthrough, %5 unsupported → %6</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%1, %Ln file(s), %2</source>
            <translation>
                <numerusform>%1, %Ln file, %2</numerusform>
                <numerusform>%1, %Ln files, %2</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 — %Ln tensor(s)</source>
            <translation>
                <numerusform>%1 — %Ln tensor</numerusform>
                <numerusform>%1 — %Ln tensors</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln companion(s)</source>
            <translation>
                <numerusform>%Ln companion</numerusform>
                <numerusform>%Ln companions</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln output tensor(s)</source>
            <translation>
                <numerusform>%Ln output tensor</numerusform>
                <numerusform>%Ln output tensors</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1 (%Ln global(s) referenced, nothing executed)</source>
            <translation>
                <numerusform>%1 (%Ln global referenced, nothing executed)</numerusform>
                <numerusform>%1 (%Ln globals referenced, nothing executed)</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>… and %Ln more</source>
            <translation>
                <numerusform>… and %Ln more</numerusform>
                <numerusform>… and %Ln more</numerusform>
            </translation>
        </message>
        <message>
            <source>GGUF</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>reading the tokenizer…</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%1 — %2, %Ln tensor(s)</source>
            <translation>
                <numerusform>%1 — %2, %Ln tensor</numerusform>
                <numerusform>%1 — %2, %Ln tensors</numerusform>
            </translation>
        </message>
        <message>
            <source>Split set</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln part(s), read as one model:</source>
            <translation>
                <numerusform>%Ln part, read as one model:</numerusform>
                <numerusform>%Ln parts, read as one model:</numerusform>
            </translation>
        </message>
        <message>
            <source>A remote model: download it to convert it</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (remote: headers only, %2 downloaded)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 bpw</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Warnings</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>PEFT adapter</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>PEFT %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, rank %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, alpha %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, scale %1 (alpha/√r: rsLoRA)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, scale %1 (alpha/r)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>, DoRA</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln adapted module(s): %1</source>
            <translation>
                <numerusform>%Ln adapted module: %1</numerusform>
                <numerusform>%Ln adapted modules: %1</numerusform>
            </translation>
        </message>
        <message>
            <source>no target modules named</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>base model %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>becomes a GGUF LoRA adapter with its base model's folder (amn convert … --to gguf --base BASE_DIR)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no GGUF form: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Adapter</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::TensorDetail</name>
        <message>
            <source>Select a tensor in the tree.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored tensor</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Dtype</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Shape</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Size</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Role</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Compute statistics</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>statistics %p%</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>min</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>max</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>mean</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>std</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>zeros</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>NaN</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>±Inf</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>values</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Written as BF16 loses</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Written as F16 loses</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Measured against the exact f32 dequantized values: root-mean-square error, largest absolute error and signal-to-quantization-noise ratio.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Group</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Parameters</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Scheme</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Bits per weight</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 stored, 16 as BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Error</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Used by</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no output tensor (not written)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Statistics are available for output tensors.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Computing…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Statistics failed: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 (%2 %)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>nothing: every value is exact</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>RMSE %1, max abs error %2, SQNR %3 dB</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>No finite values.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Log scale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Logarithmic count axis for the histogram: shows rare values in the tails</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Estimated by re-quantizing the dequantized values with the same scheme (round to nearest) and comparing. The original weights are not in the file: values already on the scheme's grid come back unchanged.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Lethe took (estimate)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>no further loss: the values are already on the scheme's grid</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln tensor</numerusform>
                <numerusform>%Ln tensors</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%Ln value(s) overflow to ±Inf</source>
            <translation>
                <numerusform>%Ln value overflows to ±Inf</numerusform>
                <numerusform>%Ln values overflow to ±Inf</numerusform>
            </translation>
        </message>
        <message>
            <source>&amp;Histogram</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>&amp;Values</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>A remote model: only its headers were downloaded, so there are no values to measure.</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>amn::ui::TensorTreeModel</name>
        <message>
            <source>Name</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Dtype / scheme</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Shape</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Parameters</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>As BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Dotted tensor name, grouped by component</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Stored dtype and the quantization scheme that reads it</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Output shape (row-major), or the stored shape for companions</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Number of elements</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Bytes in the file, companions included</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Bytes after dequantizing to BF16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>error</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>%1 · %2 (dropped)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Consumed by no output tensor: conversion drops it.</source>
            <translation type="unfinished" />
        </message>
        <message numerus="yes">
            <source>%Ln tensor(s)</source>
            <translation>
                <numerusform>%Ln tensor</numerusform>
                <numerusform>%Ln tensors</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>amn::ui::ValuePreviewPanel</name>
        <message>
            <source>Export as .&amp;npy…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Write the whole dequantized tensor as a NumPy .npy file</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>as F32</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>as F16</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Value type of the .npy file (BF16 has no NumPy type)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>export %p%</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Cancel</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Values are shown for output tensors.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Reading values…</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Values could not be read: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>First %1 × %2 of %3 × %4 values (rows × columns, dequantized)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Export as .npy</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>NumPy array (*.npy)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Written: %1 (%2)</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Export cancelled; no file written.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Export failed: %1</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Downloading the rows shown…</source>
            <translation type="unfinished" />
        </message>
    </context>
    <context>
        <name>main</name>
        <message>
            <source>Inspect ML model files and remember (dequantize) them.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>User interface language (e.g. de), default: the system locale.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>locale</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Render screenshots of the first model into DIR and quit.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>DIR</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Model files or folders to open.</source>
            <translation type="unfinished" />
        </message>
        <message>
            <source>Open a new window even when anamnesis is already running.</source>
            <translation type="unfinished" />
        </message>
    </context>
</TS>
