<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>AppState</name>
    <message>
        <source>Loading the morpheme analyser {0}: the model shows once it answers (a few seconds)…</source>
        <translation>형태소 분석기 {0}를 불러오는 중입니다. 분석기가 준비되면 모델이 표시됩니다(몇 초 걸립니다)…</translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message>
        <source>Role</source>
        <translation>역할</translation>
    </message>
    <message>
        <source>Content</source>
        <translation>내용</translation>
    </message>
    <message>
        <source>Add turn</source>
        <translation>차례 추가</translation>
    </message>
    <message>
        <source>Remove turn</source>
        <translation>차례 삭제</translation>
    </message>
    <message>
        <source>Add generation prompt</source>
        <translation>생성 프롬프트 추가</translation>
    </message>
    <message>
        <source>Template:</source>
        <translation>템플릿:</translation>
    </message>
    <message>
        <source>This tokenizer has no chat template.</source>
        <translation>이 토크나이저에는 채팅 템플릿이 없습니다.</translation>
    </message>
    <message>
        <source>{template} template: {chars:,} characters, {tokens:,} tokens, {specials:,} special</source>
        <translation>{template} 템플릿: 글자 {chars:,}개, 토큰 {tokens:,}개, 특수 토큰 {specials:,}개</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>No warnings.</source>
        <translation>경고 없음.</translation>
    </message>
</context>
<context>
    <name>CompareColumn</name>
    <message>
        <source> {0} </source>
        <translation> {0} </translation>
    </message>
    <message>
        <source>The vocab size to cut the full model to, in tokens</source>
        <translation>전체 모델을 잘라 낼 어휘 크기(토큰 수)</translation>
    </message>
    <message>
        <source>Remove this column</source>
        <translation>이 열 지우기</translation>
    </message>
    <message>
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>No tokenizer here yet.</source>
        <translation>아직 토크나이저가 없습니다.</translation>
    </message>
    <message>
        <source>Open a tokenizer to compare</source>
        <translation>비교할 토크나이저 열기</translation>
    </message>
    <message>
        <source>Cannot compare this file</source>
        <translation>이 파일은 비교할 수 없습니다</translation>
    </message>
    <message>
        <source>{0}

{1}</source>
        <translation>{0}

{1}</translation>
    </message>
    <message>
        <source>the tokenizer the other panels show</source>
        <translation>다른 패널이 보이는 토크나이저</translation>
    </message>
    <message>
        <source>the trained (or opened) tokenizer, uncut</source>
        <translation>학습한(또는 연) 토크나이저, 자르지 않음</translation>
    </message>
    <message>
        <source>the full tokenizer cut to {0:,} tokens</source>
        <translation>전체 토크나이저를 토큰 {0:,}개로 자름</translation>
    </message>
    <message>
        <source>this model cannot be cut; showing it whole</source>
        <translation>이 모델은 자를 수 없어 전체를 보입니다</translation>
    </message>
    <message>
        <source>run “{0}”</source>
        <translation>실행 “{0}”</translation>
    </message>
    <message>
        <source>{0}, {1:,} tokens: {2}</source>
        <translation>{0}, 토큰 {1:,}개: {2}</translation>
    </message>
    <message>
        <source>no tokenizer yet</source>
        <translation>아직 토크나이저 없음</translation>
    </message>
    <message>
        <source>A token is shared when every other column has exactly one token over the same characters, and so does this one; the others are differing tokens. Columns share as many tokens, so their differing tokens differ by as much as their token counts.</source>
        <translation>이 열과 다른 모든 열에서 같은 문자들을 정확히 토큰 하나가 덮으면 그 토큰은 공유됩니다. 나머지는 다른 토큰입니다. 모든 열이 공유하는 토큰 수는 같으므로, 열마다 다른 토큰 수의 차이는 토큰 수의 차이와 같습니다.</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;{0:,}&lt;/b&gt; token(s)</source>
        <translation>
            <numerusform>토큰 &lt;b&gt;{0:,}&lt;/b&gt;개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b style=&apos;color:{1}&apos;&gt;{0:,}&lt;/b&gt; boundary(ies) not shared</source>
        <translation>
            <numerusform>공유되지 않는 경계 &lt;b style=&apos;color:{1}&apos;&gt;{0:,}&lt;/b&gt;개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0:,} differing token(s)</source>
        <translation>
            <numerusform>다른 토큰 {0:,}개</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>Follow Segmentation</source>
        <translation>분절 패널 따라가기</translation>
    </message>
    <message>
        <source>Compare whatever is typed in the Segmentation panel; typing here stops following</source>
        <translation>분절 패널에 입력한 텍스트를 비교합니다. 여기에 입력하면 따라가기를 멈춥니다</translation>
    </message>
    <message>
        <source>Add tokenizer</source>
        <translation>토크나이저 추가</translation>
    </message>
    <message>
        <source>Statistics over the text above</source>
        <translation>위 텍스트에 대한 통계</translation>
    </message>
    <message>
        <source>Statistics over the corpus&apos;s {0:,} most frequent words</source>
        <translation>말뭉치에서 가장 자주 나온 단어 {0:,}개에 대한 통계</translation>
    </message>
    <message>
        <source>Text:</source>
        <translation>텍스트:</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>통계</translation>
    </message>
    <message>
        <source>Report card</source>
        <translation>성적표</translation>
    </message>
    <message>
        <source>Compared: the first {0:,} of these {1:,} characters.</source>
        <translation>비교한 범위: 이 {1:,}자 중 처음 {0:,}자.</translation>
    </message>
</context>
<context>
    <name>CorpusPanel</name>
    <message>
        <source>No corpus</source>
        <translation>말뭉치 없음</translation>
    </message>
    <message>
        <source>Text encoding of the corpus file (auto: UTF-8, else CP949)</source>
        <translation>말뭉치 파일의 텍스트 인코딩 (자동: UTF-8, 안 되면 CP949)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop counting; the loaded corpus stays (Esc)</source>
        <translation>세기를 멈춥니다. 불러온 말뭉치는 그대로입니다 (Esc)</translation>
    </message>
    <message>
        <source>Search words…</source>
        <translation>단어 검색…</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>인코딩</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>단어</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <source>First lines</source>
        <translation>첫 줄들</translation>
    </message>
    <message>
        <source>Reading {0}…</source>
        <translation>{0} 읽는 중…</translation>
    </message>
    <message>
        <source>{0}: {1}… {2:.0%}</source>
        <translation>{0}: {1}… {2:.0%}</translation>
    </message>
    <message>
        <source>{0}: {1}…</source>
        <translation>{0}: {1}…</translation>
    </message>
    <message>
        <source>Counting cancelled; the previous corpus is still loaded.</source>
        <translation>세기를 취소했습니다. 이전 말뭉치가 그대로 열려 있습니다.</translation>
    </message>
    <message>
        <source>{0:,} of {1:,}</source>
        <translation>{1:,}개 중 {0:,}개</translation>
    </message>
    <message>
        <source>{0:,} words</source>
        <translation>단어 {0:,}개</translation>
    </message>
    <message>
        <source>corpus</source>
        <translation>말뭉치</translation>
    </message>
</context>
<context>
    <name>Duration</name>
    <message>
        <source>{0:.1f} s</source>
        <translation>{0:.1f}초</translation>
    </message>
    <message>
        <source>{0} s</source>
        <translation>{0}초</translation>
    </message>
    <message>
        <source>{0} min {1} s</source>
        <translation>{0}분 {1}초</translation>
    </message>
    <message>
        <source>{0} h {1} min</source>
        <translation>{0}시간 {1}분</translation>
    </message>
</context>
<context>
    <name>EngineMessages</name>
    <message>
        <source>{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; their tokens are not GPT-2&apos;s byte alphabet, so they were read as a character-level BPE after a whitespace pre-tokenizer (not byte-level); a character the vocabulary lacks becomes {unk} and is counted as unknown</source>
        <translation>{folder}: vocab.json + merges.txt에는 정규화와 사전 토큰화에 대한 정보가 없습니다. 토큰이 GPT-2의 바이트 알파벳이 아니므로 공백 사전 토큰화기 다음의 문자 단위 BPE로 읽었습니다(바이트 단위가 아님). 어휘에 없는 문자는 {unk}이(가) 되며 미등록으로 셉니다</translation>
    </message>
    <message>
        <source>{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; their tokens are not GPT-2&apos;s byte alphabet, so they were read as a character-level BPE after a whitespace pre-tokenizer (not byte-level); it has no unknown token: a character the vocabulary lacks is left out of the encoding</source>
        <translation>{folder}: vocab.json + merges.txt에는 정규화와 사전 토큰화에 대한 정보가 없습니다. 토큰이 GPT-2의 바이트 알파벳이 아니므로 공백 사전 토큰화기 다음의 문자 단위 BPE로 읽었습니다(바이트 단위가 아님). 미등록 토큰이 없어서 어휘에 없는 문자는 인코딩에서 빠집니다</translation>
    </message>
    <message>
        <source>{folder}: vocab.json + merges.txt say nothing of normalization or pre-tokenization; assumed GPT-2&apos;s byte-level pre-tokenizer</source>
        <translation>{folder}: vocab.json + merges.txt에는 정규화와 사전 토큰화에 대한 정보가 없습니다. GPT-2의 바이트 단위 사전 토큰화기로 가정했습니다</translation>
    </message>
    <message>
        <source>vocab.json + merges.txt are taken as GPT-2&apos;s byte-level files by readers such as transformers&apos; GPT2Tokenizer, which would leave out every character not spelled in bytes; Subword Explorer reads them back as a character-level BPE after a whitespace pre-tokenizer</source>
        <translation>transformers의 GPT2Tokenizer 같은 읽기 도구는 vocab.json + merges.txt를 GPT-2의 바이트 단위 파일로 여기므로, 바이트로 적히지 않은 문자를 모두 빠뜨립니다. Subword Explorer는 이를 공백 사전 토큰화기 다음의 문자 단위 BPE로 다시 읽습니다</translation>
    </message>
    <message>
        <source>vocab.json + merges.txt do not record the model&apos;s {key} ({value})</source>
        <translation>vocab.json + merges.txt에는 모델의 {key}({value})가 기록되지 않습니다</translation>
    </message>
    <message>
        <source>{target}: added/special tokens are not marked ({names})</source>
        <translation>{target}: 추가/특수 토큰이 표시되지 않습니다 ({names})</translation>
    </message>
    <message>
        <source>cannot save to {path}: the folder {folder} does not exist</source>
        <translation>{path}에 저장할 수 없습니다: {folder} 폴더가 없습니다</translation>
    </message>
    <message>
        <source>{target}: no normalizer is stored; {what} is lost</source>
        <translation>{target}: 정규화기가 저장되지 않아 {what}이(가) 사라집니다</translation>
    </message>
    <message>
        <source>{target}: no pre-tokenizer is stored; {what} is lost</source>
        <translation>{target}: 사전 토큰화기가 저장되지 않아 {what}이(가) 사라집니다</translation>
    </message>
    <message>
        <source>vocab.txt readers (tokenizers&apos; BertWordPieceTokenizer) need BERT&apos;s special tokens: {names} written after the vocabulary (ids {ids})</source>
        <translation>vocab.txt를 읽는 도구(tokenizers의 BertWordPieceTokenizer)는 BERT의 특수 토큰이 필요합니다: {names}을(를) 어휘 뒤에 적었습니다 (id {ids})</translation>
    </message>
    <message>
        <source>the unknown token {unk} is not BERT&apos;s: readers use [UNK], written as id {id}, so what the vocabulary cannot spell gets that id, not {same}&apos;s {old}</source>
        <translation>미지 토큰 {unk}은(는) BERT의 것이 아닙니다: 읽는 도구는 id {id}로 적은 [UNK]를 쓰므로, 어휘로 적을 수 없는 것은 {same}의 {old}가 아니라 그 id를 받습니다</translation>
    </message>
    <message>
        <source>vocab.txt is read as a WordPiece vocabulary; this tokenizer&apos;s {kind} model (merges or scores) is lost</source>
        <translation>vocab.txt는 WordPiece 어휘로 읽힙니다; 이 토크나이저의 {kind} 모델(병합이나 점수)은 사라집니다</translation>
    </message>
    <message>
        <source>vocab.txt carries no normalizer and readers apply BERT&apos;s: control characters removed, each CJK ideograph split off, lowercase={lower}, strip_accents={strip} (as guessed from this vocabulary; when you open the file here, the report that opens with it lets you choose the other casing); this tokenizer had {had}, so text may encode differently</source>
        <translation>vocab.txt에는 정규화기가 없어 읽는 도구는 BERT의 것을 적용합니다: 제어 문자 제거, CJK 한자마다 분리, lowercase={lower}, strip_accents={strip} (이 어휘에서 추정; 이 파일을 여기서 열면 함께 열리는 보고서에서 다른 대소문자 방식을 고를 수 있습니다); 이 토크나이저는 {had}였으므로 텍스트가 다르게 인코딩될 수 있습니다</translation>
    </message>
    <message>
        <source>vocab.txt carries no pre-tokenizer and readers apply BERT&apos;s (split on whitespace and every punctuation character); this tokenizer had {pre}</source>
        <translation>vocab.txt에는 사전 토큰화기가 없어 읽는 도구는 BERT의 것(공백과 모든 문장 부호에서 나눔)을 적용합니다; 이 토크나이저는 {pre}였습니다</translation>
    </message>
    <message>
        <source>vocab.txt does not record the subword prefix {prefix}</source>
        <translation>vocab.txt는 하위 단어 접두사 {prefix}을(를) 기록하지 않습니다</translation>
    </message>
    <message>
        <source>{target} implies the {pre} pre-tokenizer, which this tokenizer does not use</source>
        <translation>{target}은(는) {pre} 사전 토큰화기를 전제하지만, 이 토크나이저는 그것을 쓰지 않습니다</translation>
    </message>
    <message>
        <source>vocab.json + merges.txt do not record {key}=true</source>
        <translation>vocab.json + merges.txt는 {key}=true를 기록하지 않습니다</translation>
    </message>
    <message>
        <source>subword-nmt codes carry no vocabulary ids (only the merges, in order)</source>
        <translation>subword-nmt 코드에는 어휘 id가 없습니다 (병합만 순서대로)</translation>
    </message>
    <message>
        <source>subword-nmt keeps a character its merges never build as it is, where this model gives {unk} for a unit its vocabulary lacks</source>
        <translation>subword-nmt는 병합으로 만들지 못하는 문자를 그대로 두지만, 이 모델은 어휘에 없는 단위에 {unk}을(를) 줍니다</translation>
    </message>
    <message>
        <source>subword-nmt applies codes with &apos;&lt;/w&gt;&apos; on each word&apos;s last character; this model uses end_of_word_suffix={suffix}, so segmentations differ</source>
        <translation>subword-nmt는 각 단어의 마지막 문자에 &apos;&lt;/w&gt;&apos;를 붙여 코드를 적용하지만, 이 모델은 end_of_word_suffix={suffix}를 쓰므로 분할이 달라집니다</translation>
    </message>
    <message>
        <source>subword-nmt codes do not record the prefix {prefix}</source>
        <translation>subword-nmt 코드는 접두사 {prefix}을(를) 기록하지 않습니다</translation>
    </message>
    <message>
        <source>special tokens become control pieces: SentencePiece never matches them in text</source>
        <translation>특수 토큰은 제어 조각이 됩니다: SentencePiece는 텍스트에서 이들을 찾지 않습니다</translation>
    </message>
    <message>
        <source>text that starts with a space gets one more &apos;▁&apos; in SentencePiece (it always adds its dummy prefix; the metaspace pre-tokenizer adds one only when none is there)</source>
        <translation>공백으로 시작하는 텍스트는 SentencePiece에서 &apos;▁&apos;가 하나 더 붙습니다 (SentencePiece는 늘 더미 접두사를 붙이고, metaspace 사전 토큰화기는 없을 때만 붙입니다)</translation>
    </message>
    <message>
        <source>Viterbi ties (equal-score segmentations) may break differently in SentencePiece</source>
        <translation>Viterbi 동점(점수가 같은 분할)은 SentencePiece에서 다르게 갈릴 수 있습니다</translation>
    </message>
    <message>
        <source>{target}: SentencePiece normalization is written as a tokenizers Sequence (Strip, Replace, Prepend): whitespace other than &apos; &apos; and user-defined pieces inside normalization may differ; Viterbi ties may break differently than in SentencePiece</source>
        <translation>{target}: SentencePiece 정규화는 tokenizers의 Sequence(Strip, Replace, Prepend)로 적힙니다: &apos; &apos; 외의 공백과 정규화 안의 사용자 정의 조각은 다를 수 있습니다; Viterbi 동점은 SentencePiece와 다르게 갈릴 수 있습니다</translation>
    </message>
    <message>
        <source>{target}: SentencePiece normalization is written as a tokenizers Sequence (Strip, Replace, Prepend): whitespace other than &apos; &apos; and user-defined pieces inside normalization may differ</source>
        <translation>{target}: SentencePiece 정규화는 tokenizers의 Sequence(Strip, Replace, Prepend)로 적힙니다: &apos; &apos; 외의 공백과 정규화 안의 사용자 정의 조각은 다를 수 있습니다</translation>
    </message>
    <message>
        <source>{name}: no tokenizer.ggml.pre; the &apos;default&apos; pre-tokenizer is used, as llama.cpp does</source>
        <translation>{name}: tokenizer.ggml.pre가 없어 llama.cpp처럼 &apos;default&apos; 사전 토큰화기를 씁니다</translation>
    </message>
    <message>
        <source>{name}: {key} = {value} is past the vocabulary ({n} tokens); ignored</source>
        <translation>{name}: {key} = {value}은(는) 어휘(토큰 {n}개) 범위를 벗어납니다; 무시함</translation>
    </message>
    <message>
        <source>{name}: {n} token(s) have an undefined type; they are read as normal tokens</source>
        <translation>{name}: 토큰 {n}개의 유형이 정의되지 않았습니다; 일반 토큰으로 읽습니다</translation>
    </message>
    <message>
        <source>{name}: the embedded tokenizer.huggingface.json cannot be read ({why})</source>
        <translation>{name}: 내장된 tokenizer.huggingface.json을 읽을 수 없습니다 ({why})</translation>
    </message>
    <message>
        <source>{name}: the embedded tokenizer.huggingface.json and the GGUF fields disagree on {n} token id(s)</source>
        <translation>{name}: 내장된 tokenizer.huggingface.json과 GGUF 필드가 토큰 id {n}개에서 서로 다릅니다</translation>
    </message>
    <message>
        <source>{name}: the embedded tokenizer.huggingface.json has the same vocabulary but encodes a probe text differently</source>
        <translation>{name}: 내장된 tokenizer.huggingface.json은 어휘는 같지만 시험 텍스트를 다르게 인코딩합니다</translation>
    </message>
    <message>
        <source>{name}: the embedded tokenizer.huggingface.json agrees with the GGUF fields (vocabulary and a probe text)</source>
        <translation>{name}: 내장된 tokenizer.huggingface.json이 GGUF 필드와 일치합니다 (어휘와 시험 텍스트)</translation>
    </message>
    <message>
        <source>{path} is {size} bytes, more than a tokenizer&apos;s settings take: left out</source>
        <translation>{path}은(는) {size}바이트로, 토크나이저 설정이라기엔 너무 큽니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path} is larger than {size} bytes: left out</source>
        <translation>{path}이(가) {size}바이트보다 큽니다: 읽지 않음</translation>
    </message>
    <message>
        <source>cannot read {path}: {why}: left out</source>
        <translation>{path}을(를) 읽을 수 없습니다: {why}: 읽지 않음</translation>
    </message>
    <message>
        <source>{path} is not UTF-8 text (byte {n}): left out</source>
        <translation>{path}은(는) UTF-8 텍스트가 아닙니다 (바이트 {n}): 읽지 않음</translation>
    </message>
    <message>
        <source>{path} is not valid JSON (line {line}, column {column}: {why}): left out</source>
        <translation>{path}은(는) 올바른 JSON이 아닙니다 ({line}행 {column}열: {why}): 읽지 않음</translation>
    </message>
    <message>
        <source>{path} is not valid JSON: left out</source>
        <translation>{path}은(는) 올바른 JSON이 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path} holds a JSON {type}, not an object: left out</source>
        <translation>{path}에는 객체가 아니라 JSON {type}이(가) 있습니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: added_tokens_decoder is not an object of id -&gt; token: left out</source>
        <translation>{path}: added_tokens_decoder가 id -&gt; 토큰 객체가 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: added_tokens_decoder entry {key} is not id -&gt; token: left out</source>
        <translation>{path}: added_tokens_decoder 항목 {key}이(가) id -&gt; 토큰이 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: {key} is {value}, not true or false: left out</source>
        <translation>{path}: {key}이(가) true나 false가 아니라 {value}입니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: model_max_length is {value}, not a positive number: left out</source>
        <translation>{path}: model_max_length가 양수가 아니라 {value}입니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: {key} is not a token: left out</source>
        <translation>{path}: {key}이(가) 토큰이 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: {key} holds {item}, which is not a token: left out</source>
        <translation>{path}: {key}에 토큰이 아닌 {item}이(가) 있습니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: {key} is not a list of tokens: left out</source>
        <translation>{path}: {key}이(가) 토큰 목록이 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: a chat_template entry is not {{name, template}}: left out</source>
        <translation>{path}: chat_template 항목이 {{name, template}} 형태가 아닙니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path}: chat_template is a {type}, not a template: left out</source>
        <translation>{path}: chat_template이 템플릿이 아니라 {type}입니다: 읽지 않음</translation>
    </message>
    <message>
        <source>{path} differs from tokenizer_config.json on {keys}: as transformers 5, tokenizer_config.json (which has added_tokens_decoder) is followed</source>
        <translation>{path}이(가) {keys}에서 tokenizer_config.json과 다릅니다: transformers 5처럼 (added_tokens_decoder가 있는) tokenizer_config.json을 따릅니다</translation>
    </message>
    <message>
        <source>{path}: {what} has id {id}, which {holder} holds: added as id {new}</source>
        <translation>{path}: {what}의 id {id}은(는) 이미 {holder}의 것입니다: id {new}(으)로 추가함</translation>
    </message>
    <message>
        <source>{path}: {what} is not in the vocabulary: added as id {new}, as transformers adds it</source>
        <translation>{path}: {what}이(가) 어휘에 없습니다: transformers처럼 id {new}(으)로 추가함</translation>
    </message>
    <message>
        <source>{path}: added token {token} has id {id} in tokenizer_config.json but {new} in the vocabulary: id {new} is used</source>
        <translation>{path}: 추가된 토큰 {token}의 id가 tokenizer_config.json에서는 {id}, 어휘에서는 {new}입니다: id {new}을(를) 씁니다</translation>
    </message>
    <message>
        <source>{path}: tokenizer_config.json sets {key}={value} but tokenizer.json&apos;s post-processor adds no {kind}: encoding follows tokenizer.json, as tokenizers and transformers 5 do (transformers 4&apos;s Llama and Gemma tokenizers follow the config)</source>
        <translation>{path}: tokenizer_config.json은 {key}={value}(으)로 정하지만 tokenizer.json의 후처리기는 {kind}을(를) 붙이지 않습니다: tokenizers와 transformers 5처럼 tokenizer.json을 따라 인코딩합니다 (transformers 4의 Llama, Gemma 토크나이저는 설정을 따름)</translation>
    </message>
    <message>
        <source>{path}: tokenizer_config.json sets {key}={value} but tokenizer.json&apos;s post-processor adds {kind}: encoding follows tokenizer.json, as tokenizers and transformers 5 do (transformers 4&apos;s Llama and Gemma tokenizers follow the config)</source>
        <translation>{path}: tokenizer_config.json은 {key}={value}(으)로 정하지만 tokenizer.json의 후처리기는 {kind}을(를) 붙입니다: tokenizers와 transformers 5처럼 tokenizer.json을 따라 인코딩합니다 (transformers 4의 Llama, Gemma 토크나이저는 설정을 따름)</translation>
    </message>
    <message>
        <source>the special tokens and alphabet ({n} symbols) already fill the requested vocabulary of {size}</source>
        <translation>특수 토큰과 알파벳(기호 {n}개)만으로 요청한 어휘 {size}개가 이미 찹니다</translation>
    </message>
    <message>
        <source>reached the requested vocabulary size</source>
        <translation>요청한 어휘 크기에 도달했습니다</translation>
    </message>
    <message>
        <source>reached vocab size</source>
        <translation>어휘 크기에 도달했습니다</translation>
    </message>
    <message>
        <source>vocab size reached</source>
        <translation>어휘 크기에 도달했습니다</translation>
    </message>
    <message>
        <source>no pairs left to merge: every word is a single token</source>
        <translation>병합할 쌍이 남지 않았습니다: 모든 단어가 토큰 하나입니다</translation>
    </message>
    <message>
        <source>no pair occurs at least {n} times (the minimum frequency)</source>
        <translation>{n}번 이상 나오는 쌍이 없습니다 (최소 빈도)</translation>
    </message>
    <message>
        <source>no pair occurs {n} times</source>
        <translation>{n}번 나오는 쌍이 없습니다</translation>
    </message>
    <message>
        <source>no pair left</source>
        <translation>남은 쌍이 없습니다</translation>
    </message>
    <message>
        <source>ran out of pieces</source>
        <translation>조각이 바닥났습니다</translation>
    </message>
    <message>
        <source>nothing left to remove</source>
        <translation>더 지울 조각이 없습니다</translation>
    </message>
    <message>
        <source>the word counts are pre-tokens of the pre-tokenizer {had_pre} with the normalizer {had_norm}, not of the training&apos;s pre-tokenizer {pre} with the normalizer {norm}: choose {had_pre} and {had_norm} in the Training panel&apos;s Pre-tokenizer and Normalizer boxes, or open the corpus text to count it again</source>
        <translation>이 단어 빈도는 사전 토큰화기 {had_pre}, 정규화기 {had_norm}(으)로 만든 사전 토큰이라 이번 학습의 사전 토큰화기 {pre}, 정규화기 {norm}와(과) 맞지 않습니다: 학습 패널의 사전 토큰화기와 정규화기 상자에서 {had_pre}와(과) {had_norm}을(를) 고르거나, 말뭉치 텍스트를 열어 다시 세세요</translation>
    </message>
    <message>
        <source>{path} looks like a binary file (it contains NUL bytes), not text</source>
        <translation>{path}은(는) 텍스트가 아니라 바이너리 파일로 보입니다 (NUL 바이트가 있습니다)</translation>
    </message>
    <message>
        <source>{path} looks like a binary file (it contains NUL bytes), not a word-count file</source>
        <translation>{path}은(는) 단어 빈도 파일이 아니라 바이너리 파일로 보입니다 (NUL 바이트가 있습니다)</translation>
    </message>
    <message>
        <source>{path} looks like a binary file: most of it is not {encoding} text (if it is text, choose its encoding)</source>
        <translation>{path}은(는) 바이너리 파일로 보입니다: 대부분이 {encoding} 텍스트가 아닙니다 (텍스트라면 인코딩을 고르세요)</translation>
    </message>
    <message>
        <source>{path}: {n} invalid byte(s) replaced with U+FFFD (read as {encoding}; if the file is in another encoding, choose it)</source>
        <translation>{path}: 잘못된 바이트 {n}개를 U+FFFD로 바꿨습니다 ({encoding}(으)로 읽음. 다른 인코딩의 파일이면 그 인코딩을 고르세요)</translation>
    </message>
    <message>
        <source>{path} is empty: skipped</source>
        <translation>{path}이(가) 비어 있어 건너뜁니다</translation>
    </message>
    <message>
        <source>{path} is empty (only whitespace)</source>
        <translation>{path}이(가) 비어 있습니다 (공백뿐입니다)</translation>
    </message>
    <message>
        <source>{path} is empty</source>
        <translation>{path}이(가) 비어 있습니다</translation>
    </message>
    <message>
        <source>all {n} corpus files are empty</source>
        <translation>말뭉치 파일 {n}개가 모두 비어 있습니다</translation>
    </message>
    <message>
        <source>{path}, line {line}: not valid UTF-8</source>
        <translation>{path}, {line}번째 줄: 올바른 UTF-8이 아닙니다</translation>
    </message>
    <message>
        <source>{path}: no such file</source>
        <translation>{path}: 그런 파일이 없습니다</translation>
    </message>
    <message>
        <source>{path}: permission denied</source>
        <translation>{path}: 권한이 없습니다</translation>
    </message>
    <message>
        <source>cannot read {path}: {why}</source>
        <translation>{path}을(를) 읽을 수 없습니다: {why}</translation>
    </message>
    <message>
        <source>nothing to train on: no words were counted</source>
        <translation>학습할 것이 없습니다: 센 단어가 없습니다</translation>
    </message>
    <message>
        <source>{path}: unrecognised tokenizer file (not JSON, codes, rank, .vocab or vocab.txt lines)</source>
        <translation>{path}: 알 수 없는 토크나이저 파일입니다 (JSON, codes, 순위 파일, .vocab, vocab.txt 줄 형식이 아닙니다)</translation>
    </message>
    <message>
        <source>{path} is not valid JSON (line {line}, column {column}: {why})</source>
        <translation>{path}은(는) 올바른 JSON이 아닙니다 ({line}번째 줄, {column}번째 열: {why})</translation>
    </message>
    <message>
        <source>{path} is a binary file that is not a SentencePiece model</source>
        <translation>{path}은(는) SentencePiece 모델이 아닌 바이너리 파일입니다</translation>
    </message>
    <message>
        <source>the {language}-morph pre-tokenizer needs the {name} analyser, which is not installed: {install}</source>
        <translation>{language}-morph 사전 토큰화기에는 {name} 분석기가 필요한데 설치되어 있지 않습니다: {install}</translation>
    </message>
    <message>
        <source>vocab size {size} is below the {n} distinct characters + {specials} special tokens this corpus needs</source>
        <translation>어휘 크기 {size}은(는) 이 말뭉치에 필요한 서로 다른 문자 {n}개 + 특수 토큰 {specials}개보다 작습니다</translation>
    </message>
    <message>
        <source>byte-level BPE needs the bytelevel pre-tokenizer</source>
        <translation>바이트 수준 BPE에는 bytelevel 사전 토큰화기가 필요합니다</translation>
    </message>
    <message>
        <source>vocab.txt needs an unknown token ({unk}) and this {type} vocabulary has none (a byte-level vocabulary spells every text with its bytes): save it as tokenizer.json</source>
        <translation>vocab.txt에는 미등록 토큰({unk})이 있어야 하는데 이 {type} 어휘에는 없습니다 (바이트 수준 어휘는 모든 텍스트를 바이트로 적습니다): tokenizer.json으로 저장하세요</translation>
    </message>
    <message>
        <source>{name} holds no normalizer settings: BERT&apos;s is applied with lowercase={lowercase}, the casing you chose, and strip_accents={strip} (read from the letters in its vocabulary)</source>
        <translation>{name}에는 정규화 설정이 없습니다. BERT의 설정을 적용합니다: 고르신 대로 lowercase={lowercase}, strip_accents={strip} (어휘에 있는 글자로 판단)</translation>
    </message>
    <message>
        <source>{name} holds no normalizer settings: assumed BERT&apos;s, with lowercase={lowercase} and strip_accents={strip} (read from the letters in its vocabulary; the report that opens with the file lets you choose the other casing)</source>
        <translation>{name}에는 정규화 설정이 없습니다. BERT의 설정으로 가정했습니다: lowercase={lowercase}, strip_accents={strip} (어휘에 있는 글자로 판단; 파일과 함께 열리는 보고서에서 다른 대소문자 방식을 고를 수 있습니다)</translation>
    </message>
    <message>
        <source>{name} does not store its split pattern: assumed {guess} ({why}); the report that opens with the file lets you choose another</source>
        <translation>{name}에는 분할 패턴이 저장되어 있지 않습니다. {guess}(으)로 가정했습니다 ({why}); 파일과 함께 열리는 보고서에서 다른 패턴을 고를 수 있습니다</translation>
    </message>
    <message>
        <source>{name}: a .vocab file has no normalization rules; text is only whitespace-normalized (load the .model file for exact SentencePiece encoding)</source>
        <translation>{name}: .vocab 파일에는 정규화 규칙이 없어 공백만 정규화합니다 (정확한 SentencePiece 인코딩은 .model 파일을 여세요)</translation>
    </message>
    <message>
        <source>{name}: model type guessed from the scores: {type}</source>
        <translation>{name}: 점수로 모델 종류를 추정했습니다: {type}</translation>
    </message>
    <message>
        <source>{name} has post-processor {post}, which Subword Explorer keeps but does not apply: encodings here lack whatever it adds or changes</source>
        <translation>{name}에는 후처리기 {post}가 있습니다. Subword Explorer는 이를 보관하지만 적용하지는 않으므로, 여기의 인코딩에는 후처리기가 더하거나 바꾸는 부분이 없습니다</translation>
    </message>
    <message>
        <source>{name} sets {key}, which Subword Explorer keeps but does not apply</source>
        <translation>{name}은(는) {key}를 설정합니다. Subword Explorer는 이를 보관하지만 적용하지는 않습니다</translation>
    </message>
    <message>
        <source>{name}: version 0.1 codes (a separate &lt;/w&gt; unit) are applied approximately</source>
        <translation>{name}: 버전 0.1 코드(별도의 &lt;/w&gt; 단위)는 근사적으로 적용됩니다</translation>
    </message>
    <message>
        <source>{name}: subword-nmt codes carry no vocabulary ids; ids follow the order units appear in the codes; a character the codes never mention is kept as it is, as subword-nmt keeps it, with &lt;unk&gt;&apos;s id (the codes give it none)</source>
        <translation>{name}: subword-nmt codes에는 어휘 id가 없습니다. id는 codes에 단위가 나오는 순서를 따릅니다. codes에 한 번도 나오지 않는 문자는 subword-nmt처럼 그대로 두고 &lt;unk&gt;의 id를 붙입니다 (codes에는 그 id가 없음)</translation>
    </message>
    <message>
        <source>{name}: CLIP repairs text with ftfy.fix_text first (mojibake, curly quotes, full-width letters); that step is left out, so such text may encode differently</source>
        <translation>{name}: CLIP은 먼저 ftfy.fix_text로 텍스트를 고칩니다 (깨진 인코딩, 둥근 따옴표, 전각 문자). 그 단계는 빠져 있으므로 그런 텍스트는 다르게 인코딩될 수 있습니다</translation>
    </message>
    <message>
        <source>{n} of {total} word pieces have their lowercase form too (e.g. {upper} and {lower})</source>
        <translation>단어 조각 {total}개 중 {n}개는 소문자 형태도 있음 (예: {upper}와(과) {lower})</translation>
    </message>
    <message>
        <source>only {n} of {total} word pieces have an upper-case form beside their lowercase one: assumed lowercase, the BERT libraries&apos; default</source>
        <translation>단어 조각 {total}개 중 소문자 형태와 함께 대문자 형태도 있는 것이 {n}개뿐이라 BERT 라이브러리의 기본값인 소문자로 가정</translation>
    </message>
    <message>
        <source>{n} ranks, as tiktoken&apos;s {name}</source>
        <translation>순위 {n}개, tiktoken의 {name}와(과) 같음</translation>
    </message>
    <message>
        <source>{n} ranks, nearest in size to {name}</source>
        <translation>순위 {n}개, 크기가 {name}에 가장 가까움</translation>
    </message>
    <message>
        <source>Tokenizers</source>
        <translation>토크나이저</translation>
    </message>
    <message>
        <source>All files</source>
        <translation>모든 파일</translation>
    </message>
    <message>
        <source>Project folder: tokenizer.json + training record</source>
        <translation>프로젝트 폴더: tokenizer.json + 학습 기록</translation>
    </message>
    <message>
        <source>GPT-2 folder: vocab.json + merges.txt</source>
        <translation>GPT-2 폴더: vocab.json + merges.txt</translation>
    </message>
    <message>
        <source>SentencePiece model</source>
        <translation>SentencePiece 모델</translation>
    </message>
    <message>
        <source>tiktoken ranks</source>
        <translation>tiktoken 순위 파일</translation>
    </message>
    <message>
        <source>subword-nmt codes</source>
        <translation>subword-nmt 병합 코드</translation>
    </message>
    <message>
        <source>CLIP merges</source>
        <translation>CLIP 병합 파일</translation>
    </message>
    <message>
        <source>Reading</source>
        <translation>읽는 중</translation>
    </message>
    <message>
        <source>Counting</source>
        <translation>세는 중</translation>
    </message>
    <message>
        <source>Sorting words</source>
        <translation>단어 정렬</translation>
    </message>
    <message>
        <source>Counting characters</source>
        <translation>문자 세기</translation>
    </message>
    <message>
        <source>Counting pairs</source>
        <translation>쌍 세기</translation>
    </message>
    <message>
        <source>Alphabet</source>
        <translation>알파벳</translation>
    </message>
    <message>
        <source>Splitting words</source>
        <translation>단어 나누기</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>시드</translation>
    </message>
    <message>
        <source>Seed loss</source>
        <translation>시드 손실</translation>
    </message>
    <message>
        <source>Forward pass</source>
        <translation>전방 계산</translation>
    </message>
    <message>
        <source>Expected counts</source>
        <translation>기대 빈도</translation>
    </message>
    <message>
        <source>Best paths</source>
        <translation>최적 경로</translation>
    </message>
    <message>
        <source>EM</source>
        <translation>EM</translation>
    </message>
    <message>
        <source>Prune</source>
        <translation>가지치기</translation>
    </message>
    <message>
        <source>Final</source>
        <translation>최종</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>인코딩</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>비교 실험</translation>
    </message>
</context>
<context>
    <name>Guide</name>
    <message>
        <source>step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>pair</source>
        <translation>쌍</translation>
    </message>
    <message>
        <source>new token</source>
        <translation>새 토큰</translation>
    </message>
    <message>
        <source>count</source>
        <translation>빈도</translation>
    </message>
    <message>
        <source>score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>The main flow</source>
        <translation>기본 흐름</translation>
    </message>
    <message>
        <source>The panels</source>
        <translation>패널</translation>
    </message>
    <message>
        <source>BPE</source>
        <translation>BPE</translation>
    </message>
    <message>
        <source>WordPiece</source>
        <translation>WordPiece</translation>
    </message>
    <message>
        <source>Unigram</source>
        <translation>Unigram</translation>
    </message>
    <message>
        <source>Byte-level BPE</source>
        <translation>바이트 수준 BPE</translation>
    </message>
    <message>
        <source>Korean text</source>
        <translation>한국어 텍스트</translation>
    </message>
    <message>
        <source>Reading the why view</source>
        <translation>이유 보기 읽는 법</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>단축키</translation>
    </message>
    <message>
        <source>The report card&apos;s measures</source>
        <translation>성적표의 지표</translation>
    </message>
    <message>
        <source>Subword Explorer: a short guide</source>
        <translation>Subword Explorer: 짧은 안내서</translation>
    </message>
    <message>
        <source>A subword tokenizer cuts text into pieces from a fixed vocabulary that it learned from a corpus. This app trains one in front of you, lets you shrink its vocabulary and shows how any text you type is cut, and why.</source>
        <translation>서브워드 토크나이저는 말뭉치에서 배운 고정된 어휘의 조각으로 텍스트를 자릅니다. 이 앱은 눈앞에서 토크나이저를 학습하고, 어휘를 줄여 보게 하고, 입력한 텍스트가 어떻게, 왜 잘리는지 보여 줍니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Open a corpus&lt;/b&gt;: File › Open corpus (Ctrl+O), drop a text file on the window, or pick an entry of the Examples menu (a textbook example with its own options).</source>
        <translation>&lt;b&gt;말뭉치 열기&lt;/b&gt;: 파일 › 말뭉치 열기(Ctrl+O), 창에 텍스트 파일을 끌어다 놓기, 또는 예제 메뉴에서 항목 고르기(자체 옵션이 있는 교과서 예제).</translation>
    </message>
    <message>
        <source>&lt;b&gt;Train&lt;/b&gt; (Ctrl+T) in the Training panel: choose the algorithm and vocab size first. The merge log and the plots grow live; Step (Ctrl+Shift+T) goes one merge at a time; Esc cancels.</source>
        <translation>학습 패널에서 &lt;b&gt;학습&lt;/b&gt;(Ctrl+T): 먼저 알고리즘과 어휘 크기를 고릅니다. 병합 기록과 그래프가 실시간으로 늘어납니다. 한 단계(Ctrl+Shift+T)는 병합을 한 번씩 진행하고, Esc는 취소합니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Move the Vocab size slider&lt;/b&gt;: the model is cut to its first k tokens and every panel follows, so you see what a smaller vocabulary does to the same text.</source>
        <translation>&lt;b&gt;어휘 크기 슬라이더 움직이기&lt;/b&gt;: 모델이 처음 k개 토큰으로 잘리고 모든 패널이 따라오므로, 어휘가 작아지면 같은 텍스트가 어떻게 달라지는지 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Type or paste text&lt;/b&gt; in the Segmentation panel. Each token gets a colour; hover one for its id, bytes and offsets; click one to see why it was cut that way.</source>
        <translation>분절 패널에 &lt;b&gt;텍스트를 입력하거나 붙여 넣으세요&lt;/b&gt;. 토큰마다 색이 붙습니다. 마우스를 올리면 ID, 바이트, 위치가 보이고, 누르면 왜 그렇게 잘렸는지 보입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Compare and keep&lt;/b&gt;: every finished run is in the Runs panel; add runs as Compare columns, rename them, save them (Ctrl+S saves the shown tokenizer).</source>
        <translation>&lt;b&gt;비교하고 보관하기&lt;/b&gt;: 끝난 실행은 모두 실행 기록 패널에 있습니다. 비교 열로 추가하고, 이름을 바꾸고, 저장하세요 (Ctrl+S는 보이는 토크나이저를 저장합니다).</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <source>What the corpus holds: its words and characters, by count, searchable.</source>
        <translation>말뭉치에 든 것: 단어와 문자를 빈도순으로, 검색할 수 있게.</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>학습</translation>
    </message>
    <message>
        <source>Options, Train / Step / Cancel, the merge log (or Unigram rounds) and live plots.</source>
        <translation>옵션, 학습 / 한 단계 / 취소, 병합 기록(또는 Unigram 라운드)과 실시간 그래프.</translation>
    </message>
    <message>
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>The slider that cuts the trained model to a smaller vocabulary.</source>
        <translation>학습된 모델을 더 작은 어휘로 자르는 슬라이더.</translation>
    </message>
    <message>
        <source>Segmentation</source>
        <translation>분절</translation>
    </message>
    <message>
        <source>Your text, coloured by token; the token chips with their ids; the why view.</source>
        <translation>토큰별로 색칠된 텍스트, ID가 붙은 토큰 칩, 이유 보기.</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>Every token of the model, searchable, and the merges that built it; the hygiene list tints the tokens that are unreachable, undecodable, never used or only a merge step.</source>
        <translation>모델의 모든 토큰(검색 가능)과 그것을 만든 병합. 어휘 점검 목록은 도달 불가, 디코딩 불가, 한 번도 안 쓰임, 병합의 중간 단계뿐인 토큰에 색을 입힙니다.</translation>
    </message>
    <message>
        <source>One text under several tokenizers side by side: grey where they agree, a magenta bar at each boundary not all of them have, and their statistics. Its Report card tab measures every column over the whole corpus and exports the card as one HTML page.</source>
        <translation>한 텍스트를 여러 토크나이저로 나란히: 일치하는 곳은 회색, 모두가 갖지 않은 경계에는 자홍색 막대, 그리고 통계. 성적표 탭은 말뭉치 전체에 대해 모든 열을 재고 성적표를 HTML 페이지 하나로 내보냅니다.</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>실행 기록</translation>
    </message>
    <message>
        <source>Every training run of the session: show it again, compare, rename, save or discard. The shown one comes back when you relaunch.</source>
        <translation>이 세션의 모든 학습 실행: 다시 보이기, 비교, 이름 바꾸기, 저장, 버리기. 보이던 실행은 다시 실행할 때 돌아옵니다.</translation>
    </message>
    <message>
        <source>View › (Alt+1 … Alt+7) shows or hides each panel; View › Reset layout puts them back.</source>
        <translation>보기 › (Alt+1 … Alt+7)로 패널을 보이거나 숨기고, 보기 › 배치 초기화로 되돌립니다.</translation>
    </message>
    <message>
        <source>Byte-pair encoding (Sennrich et al., 2016) starts from single characters and repeatedly merges the pair of neighbouring symbols that occurs most often in the corpus, until the vocabulary has the size you asked for. The merges, in order, are the model.</source>
        <translation>바이트 페어 인코딩(Sennrich 외, 2016)은 낱글자에서 시작해, 말뭉치에서 가장 자주 나오는 이웃한 기호 쌍을 거듭 병합하며 어휘가 원하는 크기가 될 때까지 계속합니다. 순서대로 나열한 병합들이 곧 모델입니다.</translation>
    </message>
    <message>
        <source>The Hugging Face course&apos;s example (Examples › hug / pug / pun / bun / hugs): the words hug ×10, pug ×5, pun ×12, bun ×4 and hugs ×5. The engine learns:</source>
        <translation>Hugging Face 강좌의 예제(예제 › hug / pug / pun / bun / hugs): 단어 hug ×10, pug ×5, pun ×12, bun ×4, hugs ×5. 엔진이 배우는 병합:</translation>
    </message>
    <message>
        <source>To encode a word, the merges are applied in the order they were learned:</source>
        <translation>단어를 인코딩할 때는 배운 순서대로 병합을 적용합니다:</translation>
    </message>
    <message>
        <source>m was never in the corpus, so it is the unknown token (red); b was, so it stays a letter of its own.</source>
        <translation>m은 말뭉치에 없었으므로 미등록 토큰(빨강)이 되고, b는 있었으므로 낱글자로 남습니다.</translation>
    </message>
    <message>
        <source>WordPiece (used by BERT) also merges pairs, but ranks a pair by count(pair) / (count(first) × count(second)): a pair wins when its parts are rarely seen apart. Pieces inside a word carry the prefix ##. To encode, it takes the longest vocabulary entry that matches at the start of the word, then again from where that ended; if nothing matches, the whole word becomes the unknown token.</source>
        <translation>WordPiece(BERT가 사용)도 쌍을 병합하지만, 쌍의 순위를 빈도(쌍) / (빈도(앞) × 빈도(뒤))로 매깁니다. 구성 요소가 따로 나오는 일이 드물수록 그 쌍이 이깁니다. 단어 안쪽 조각에는 접두사 ##가 붙습니다. 인코딩할 때는 단어 앞에서 일치하는 가장 긴 어휘를 고르고, 그 끝에서 다시 반복합니다. 아무것도 맞지 않으면 단어 전체가 미등록 토큰이 됩니다.</translation>
    </message>
    <message>
        <source>The same hug / pug counts, trained to 16 tokens:</source>
        <translation>같은 hug / pug 빈도로 토큰 16개까지 학습한 결과:</translation>
    </message>
    <message>
        <source>Unigram (Kudo, 2018; SentencePiece) works the other way round: it starts from a large set of candidate pieces, gives each a probability, and removes the pieces whose loss would hurt the corpus least, round after round, until the vocabulary is small enough. To encode, it picks the cut whose pieces have the highest total log-probability (the Viterbi path through the lattice of all possible cuts).</source>
        <translation>Unigram(Kudo, 2018; SentencePiece)은 반대로 움직입니다. 큰 후보 조각 집합에서 시작해 조각마다 확률을 주고, 없애도 말뭉치 손실이 가장 적게 느는 조각을 라운드마다 지워 어휘가 충분히 작아질 때까지 계속합니다. 인코딩할 때는 조각들의 로그 확률 합이 가장 큰 분할(모든 분할의 격자를 지나는 비터비 경로)을 고릅니다.</translation>
    </message>
    <message>
        <source>The Hugging Face course&apos;s four sentences (Examples › Four sentences), pre-tokenized the SentencePiece way (▁ marks a word start), trained to 100 pieces:</source>
        <translation>Hugging Face 강좌의 네 문장(예제 › 네 문장 (Unigram))을 SentencePiece 방식(▁는 단어 시작 표시)으로 사전 토큰화하고 조각 100개까지 학습한 결과:</translation>
    </message>
    <message>
        <source>Byte-level BPE (the GPT-2 paper, Radford et al., 2019) runs BPE over the UTF-8 bytes of the text instead of its characters. Its alphabet is the 256 byte values, so no text is ever unknown: a character the corpus never had is spelled by its bytes. A Korean syllable is three bytes; 👋🏽 (a hand and a skin tone) is eight.</source>
        <translation>바이트 수준 BPE(GPT-2 논문, Radford 외, 2019)는 문자 대신 텍스트의 UTF-8 바이트 위에서 BPE를 돌립니다. 알파벳이 256개 바이트 값이므로 모르는 텍스트가 없습니다. 말뭉치에 없던 문자는 바이트로 씁니다. 한글 음절 하나는 3바이트, 👋🏽(손과 피부색)는 8바이트입니다.</translation>
    </message>
    <message>
        <source>Trained on the hug / pug counts, it knows hug but has never seen Korean or emoji; their bytes are drawn ⟨like this⟩ where a token is not a whole character:</source>
        <translation>hug / pug 빈도로 학습하면 hug는 알지만 한국어나 이모지는 본 적이 없습니다. 토큰이 온전한 문자가 아닌 곳에서는 바이트를 ⟨이렇게⟩ 그립니다:</translation>
    </message>
    <message>
        <source>Korean words (어절) glue particles and endings to their stems, so how a tokenizer cuts them matters a lot (Park et al., 2020 compare syllable, morpheme and subword cuts). Examples › 철수는 / 치킨을 / 먹고 / 볶음밥을 / 있다 counts five 어절; BPE over syllables learns:</source>
        <translation>한국어 어절은 어간에 조사와 어미가 붙어 있어서, 토크나이저가 어떻게 자르는지가 매우 중요합니다(Park 외, 2020은 음절, 형태소, 서브워드 분할을 비교합니다). 예제 › 철수는 / 치킨을 / 먹고 / 볶음밥을 / 있다는 어절 다섯 개를 셉니다. 음절 위의 BPE가 배우는 병합:</translation>
    </message>
    <message>
        <source>Click a token (or move the cursor onto it) and the why view below the chips explains the word it belongs to:</source>
        <translation>토큰을 누르면(또는 커서를 그 위로 옮기면) 칩 아래의 이유 보기가 그 토큰이 속한 단어를 설명합니다:</translation>
    </message>
    <message>
        <source>&lt;b&gt;BPE&lt;/b&gt;: the word&apos;s characters on the first row, then one row per merge that applied, in the order the encoder applies them, the new symbol highlighted (as in the hugs example above). Unknown characters are red.</source>
        <translation>&lt;b&gt;BPE&lt;/b&gt;: 첫 줄에 단어의 문자, 그 아래로 적용된 병합마다 한 줄씩 인코더가 적용하는 순서대로, 새 기호는 강조해서(위 hugs 예제처럼). 미등록 문자는 빨강입니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;WordPiece&lt;/b&gt;: the greedy walk: at each position, the longest vocabulary entry that matches; a position with no match turns the whole word into the unknown token.</source>
        <translation>&lt;b&gt;WordPiece&lt;/b&gt;: 탐욕적 탐색. 위치마다 일치하는 가장 긴 어휘. 일치하는 것이 없는 위치가 있으면 단어 전체가 미등록 토큰이 됩니다.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Unigram&lt;/b&gt;: the lattice: the characters along the top, every candidate piece as a box under the characters it spans with its log-probability, the chosen path highlighted; below it the next-best cuts and a few sampled ones.</source>
        <translation>&lt;b&gt;Unigram&lt;/b&gt;: 격자. 위쪽에 문자, 후보 조각마다 덮는 문자 아래에 로그 확률과 함께 상자로, 고른 경로는 강조. 그 아래에 차선의 분할들과 표본 분할 몇 개.</translation>
    </message>
    <message>
        <source>The why view of hugs under the BPE example above.</source>
        <translation>위 BPE 예제에서 hugs의 이유 보기.</translation>
    </message>
    <message>
        <source>The why view of ▁tokenization under the Unigram example.</source>
        <translation>Unigram 예제에서 ▁tokenization의 이유 보기.</translation>
    </message>
    <message>
        <source>Colours: each token id keeps its colour; &lt;span style=&apos;background:#D7191C; color:white&apos;&gt;&amp;nbsp;unknown&amp;nbsp;&lt;/span&gt; tokens are red, &lt;span style=&apos;background:#3B4A5A; color:white&apos;&gt;&amp;nbsp;special&amp;nbsp;&lt;/span&gt; ones dark, and characters no token covers are grey and struck through. In tooltips, offsets count characters from the start of the line.</source>
        <translation>색: 토큰 ID마다 색이 유지됩니다. &lt;span style=&apos;background:#D7191C; color:white&apos;&gt;&amp;nbsp;미등록&amp;nbsp;&lt;/span&gt; 토큰은 빨강, &lt;span style=&apos;background:#3B4A5A; color:white&apos;&gt;&amp;nbsp;특수&amp;nbsp;&lt;/span&gt; 토큰은 어두운색, 어떤 토큰도 덮지 않는 문자는 회색 취소선입니다. 도구 설명의 위치는 줄 처음부터 센 문자 수입니다.</translation>
    </message>
    <message>
        <source>this guide</source>
        <translation>이 안내서</translation>
    </message>
    <message>
        <source>open a corpus</source>
        <translation>말뭉치 열기</translation>
    </message>
    <message>
        <source>train / step one merge</source>
        <translation>학습 / 한 번 병합</translation>
    </message>
    <message>
        <source>cancel counting or training</source>
        <translation>세기나 학습 취소</translation>
    </message>
    <message>
        <source>save the shown tokenizer / save as</source>
        <translation>보이는 토크나이저 저장 / 다른 이름으로 저장</translation>
    </message>
    <message>
        <source>copy the text&apos;s tokens / ids</source>
        <translation>텍스트의 토큰 / ID 복사</translation>
    </message>
    <message>
        <source>walk the text token by token (the why view follows)</source>
        <translation>텍스트를 토큰 단위로 이동 (이유 보기가 따라옴)</translation>
    </message>
    <message>
        <source>show or hide a panel</source>
        <translation>패널 보이기 / 숨기기</translation>
    </message>
    <message>
        <source>tokens / word, character, byte</source>
        <translation>토큰 / 단어, 문자, 바이트</translation>
    </message>
    <message>
        <source>What a word (어절), a character or a byte of the corpus costs in tokens; tokens per word is the fertility of Rust et al. 2021, per byte the cost Petrov et al. 2023 compare.</source>
        <translation>말뭉치의 단어(어절), 문자, 바이트 하나가 토큰으로 얼마인지. 단어당 토큰은 Rust et al. 2021의 fertility, 바이트당 토큰은 Petrov et al. 2023이 비교한 비용입니다.</translation>
    </message>
    <message>
        <source>baselines</source>
        <translation>기준선</translation>
    </message>
    <message>
        <source>One token per character, and one token per whole word with the corpus&apos;s most frequent words as a vocabulary of the same size and the share of words it leaves unknown: the two textbook bounds a subword tokenizer sits between.</source>
        <translation>문자마다 토큰 하나, 그리고 말뭉치에서 가장 잦은 단어들로 같은 크기의 어휘를 만든 단어마다 토큰 하나와 그 어휘가 미등록으로 남기는 단어 비율: 서브워드 토크나이저가 그 사이에 놓이는 교과서의 두 경계.</translation>
    </message>
    <message>
        <source>unknown tokens</source>
        <translation>미등록 토큰</translation>
    </message>
    <message>
        <source>The share of tokens that are the unknown token: text the vocabulary cannot spell.</source>
        <translation>미등록 토큰인 토큰의 비율: 어휘로 적을 수 없는 텍스트.</translation>
    </message>
    <message>
        <source>Rényi efficiency</source>
        <translation>레니 효율</translation>
    </message>
    <message>
        <source>The Rényi entropy (order α, 3 by default) of how often each token is used, over its largest value: higher uses the vocabulary more evenly (Zouhar et al. 2023, “Tokenization and the Noiseless Channel”; equal to the tokenization-scorer package).</source>
        <translation>각 토큰이 쓰이는 빈도의 레니 엔트로피(차수 α, 기본 3)를 그 최댓값으로 나눈 값: 높을수록 어휘를 고르게 씁니다 (Zouhar et al. 2023, “Tokenization and the Noiseless Channel”; tokenization-scorer 패키지와 같은 값).</translation>
    </message>
    <message>
        <source>Shannon efficiency</source>
        <translation>섀넌 효율</translation>
    </message>
    <message>
        <source>The same with Shannon entropy, α = 1 (Zouhar et al. 2023).</source>
        <translation>같은 것을 섀넌 엔트로피(α = 1)로 (Zouhar et al. 2023).</translation>
    </message>
    <message>
        <source>premium and Gini</source>
        <translation>비용 배율과 지니 계수</translation>
    </message>
    <message>
        <source>Given parallel files, what the same sentences cost in each language over the pivot language, and one Gini coefficient for the spread (Petrov et al. 2023, “Language Model Tokenizers Introduce Unfairness Between Languages”).</source>
        <translation>병렬 파일이 있으면, 같은 문장이 각 언어에서 기준 언어에 비해 드는 비용과 그 차이를 한 수로 요약한 지니 계수 (Petrov et al. 2023, “Language Model Tokenizers Introduce Unfairness Between Languages”).</translation>
    </message>
    <message>
        <source>boundary precision, recall, F1</source>
        <translation>경계 정밀도, 재현율, F1</translation>
    </message>
    <message>
        <source>For Korean and Japanese, how the cuts inside words fall on the morpheme boundaries of kiwipiepy or SudachiPy (in the spirit of MorphScore, Arnett &amp; Bergen 2024; for Korean, the question of Park et al. 2020).</source>
        <translation>한국어와 일본어에서, 단어 안의 자름이 kiwipiepy나 SudachiPy의 형태소 경계에 얼마나 맞는지 (MorphScore, Arnett &amp; Bergen 2024의 취지; 한국어는 Park et al. 2020의 물음).</translation>
    </message>
    <message>
        <source>unreachable, undecodable</source>
        <translation>도달 불가, 디코딩 불가</translation>
    </message>
    <message>
        <source>Tokens that encoding their own text never gives, and tokens that do not decode to whole characters (Land &amp; Bartolo 2024, “Fishing for Magikarp”).</source>
        <translation>자기 텍스트를 인코딩해도 결코 나오지 않는 토큰과, 온전한 문자로 디코딩되지 않는 토큰 (Land &amp; Bartolo 2024, “Fishing for Magikarp”).</translation>
    </message>
    <message>
        <source>byte and control pieces, never used</source>
        <translation>바이트·제어 조각, 한 번도 안 쓰임</translation>
    </message>
    <message>
        <source>Byte pieces, tokens of control or private-use characters, and tokens the corpus never uses (Land &amp; Bartolo 2024).</source>
        <translation>바이트 조각, 제어 문자나 사용자 정의 문자의 토큰, 말뭉치가 한 번도 쓰지 않는 토큰 (Land &amp; Bartolo 2024).</translation>
    </message>
    <message>
        <source>intermediate-only</source>
        <translation>중간 단계 전용</translation>
    </message>
    <message>
        <source>Unused tokens that are a part of some merge: only steps towards other tokens (Chizhov et al. 2024, “BPE Gets Picky”, PickyBPE).</source>
        <translation>쓰이지 않지만 어떤 병합의 일부인 토큰: 다른 토큰으로 가는 중간 단계일 뿐 (Chizhov et al. 2024, “BPE Gets Picky”, PickyBPE).</translation>
    </message>
    <message>
        <source>Compare › Report card computes these for every column in the background and marks the best of each row; Export report… writes them, with the plots, the corpus, the options and the versions, as one HTML file. The Vocabulary panel&apos;s hygiene list tints the tokens of one list. The command line does the same: subword evaluate.</source>
        <translation>비교 › 성적표는 이 지표들을 모든 열에 대해 백그라운드에서 계산하고 행마다 가장 좋은 값을 표시합니다. 보고서 내보내기…는 그래프, 말뭉치, 옵션, 버전과 함께 HTML 파일 하나로 씁니다. 어휘 패널의 어휘 점검 목록은 한 목록의 토큰에 색을 입힙니다. 명령줄에서는 subword evaluate가 같은 일을 합니다.</translation>
    </message>
    <message>
        <source>Working the example out with the engine…</source>
        <translation>엔진으로 예제를 계산하는 중…</translation>
    </message>
    <message>
        <source>The example could not be worked out: </source>
        <translation>예제를 계산할 수 없습니다: </translation>
    </message>
    <message>
        <source>stage 2 starts: merges across spaces</source>
        <translation>2단계 시작: 공백을 넘는 병합</translation>
    </message>
    <message>
        <source>merge or removal</source>
        <translation>병합 또는 삭제</translation>
    </message>
    <message>
        <source>IoS</source>
        <translation>IoS</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>삭제됨</translation>
    </message>
    <message>
        <source>without dropout</source>
        <translation>드롭아웃 없이</translation>
    </message>
    <message>
        <source>sample {0} (p = {1})</source>
        <translation>표본 {0} (p = {1})</translation>
    </message>
    <message>
        <source>These samples have {0:.0%} more tokens on average than the deterministic cut.</source>
        <translation>이 표본들은 결정적 분할보다 토큰이 평균 {0:.0%} 더 많습니다.</translation>
    </message>
    <message>
        <source>SuperBPE (Liu et al., 2025, “SuperBPE: Space Travel for Language Models”) trains in two stages. Up to a transition point t it is ordinary BPE inside words; after it, the whitespace split is lifted and BPE goes on learning superwords, tokens that span a space such as “ the way” or “ sat on the”. A frequent phrase then costs one token. Choose algorithm superbpe and t in the Training panel; the merge log marks where stage 2 starts and superword tokens are drawn with their spaces.</source>
        <translation>SuperBPE(Liu 외, 2025, “SuperBPE: Space Travel for Language Models”)는 두 단계로 학습합니다. 전환점 t까지는 단어 안에서만 병합하는 보통의 BPE이고, 그 뒤에는 공백 분할을 풀고 BPE를 계속해 “ the way”나 “ sat on the”처럼 공백을 넘는 토큰, 곧 슈퍼워드를 배웁니다. 그러면 자주 나오는 구절 하나가 토큰 하나가 됩니다. 학습 패널에서 알고리즘 superbpe와 t를 고르세요. 병합 기록에 2단계가 시작하는 곳이 표시되고, 슈퍼워드 토큰은 공백과 함께 그려집니다.</translation>
    </message>
    <message>
        <source>Three sentences repeated five times, t = 285 of 300 tokens (␣ is a space):</source>
        <translation>세 문장을 다섯 번 되풀이, 토큰 300개 중 t = 285 (␣는 공백):</translation>
    </message>
    <message>
        <source>PickyBPE (Chizhov et al., 2024, “BPE Gets Picky”) removes a token when a merge leaves it only as a step towards the new one: after each merge it computes each part&apos;s intersection over self (IoS), the share of the part&apos;s occurrences that were inside the new token, and deletes the part when IoS ≥ τ. The merge log shows these deletions, and the vocabulary is no longer the first k merges, so the slider follows the log.</source>
        <translation>PickyBPE(Chizhov 외, 2024, “BPE Gets Picky”)는 병합 뒤 새 토큰으로 가는 중간 단계로만 남은 토큰을 지웁니다. 병합할 때마다 각 구성 요소의 IoS(intersection over self), 곧 그 요소가 나온 자리 중 새 토큰 안에 있던 비율을 계산하고, IoS ≥ τ이면 그 요소를 삭제합니다. 병합 기록에 이 삭제가 보이며, 어휘가 더 이상 처음 k개 병합이 아니므로 슬라이더는 기록을 따라 자릅니다.</translation>
    </message>
    <message>
        <source>Sennrich et al.&apos;s words low ×5, lower ×2, newest ×6, widest ×3 with τ = 0.9:</source>
        <translation>Sennrich 외의 단어 low ×5, lower ×2, newest ×6, widest ×3, τ = 0.9:</translation>
    </message>
    <message>
        <source>BPE-dropout (Provilkov et al., 2020) skips each merge with probability p while encoding, so the same word is cut in several ways; trained on such cuts a model learns how words are built. Unigram sampling (Kudo, 2018, subword regularization) draws a cut from the whole lattice instead. The Samples tab shows several seeded cuts of your text and how many more tokens they take; &lt;code&gt;subword encode --dropout p --seed s&lt;/code&gt; does it in batch.</source>
        <translation>BPE 드롭아웃(Provilkov 외, 2020)은 인코딩할 때 병합마다 확률 p로 건너뛰어 같은 단어를 여러 방식으로 자릅니다. 이런 분할로 학습한 모델은 단어가 어떻게 이루어지는지 배웁니다. Unigram 샘플링(Kudo, 2018, 서브워드 정규화)은 대신 격자 전체에서 분할 하나를 뽑습니다. 표본 탭은 입력한 텍스트의 시드 고정 분할 여러 개와 토큰이 얼마나 더 드는지 보여 줍니다. 일괄 처리는 &lt;code&gt;subword encode --dropout p --seed s&lt;/code&gt;로 합니다.</translation>
    </message>
    <message>
        <source>SentencePiece-style training (Kudo and Richardson, 2018; the sentencepiece-bpe and sentencepiece-unigram algorithms) trains as spm_train does and saves a .model file. With byte fallback, as in Llama and Mistral tokenizers, the 256 pieces &amp;lt;0x00&amp;gt; … &amp;lt;0xFF&amp;gt; join the vocabulary and a character the corpus never had is spelled by its UTF-8 bytes instead of becoming the unknown token. Compare shows a run&apos;s unknown rate with and without it.</source>
        <translation>SentencePiece 방식 학습(Kudo와 Richardson, 2018; sentencepiece-bpe와 sentencepiece-unigram 알고리즘)은 spm_train처럼 학습하고 .model 파일로 저장합니다. Llama와 Mistral 토크나이저처럼 바이트 폴백을 켜면 조각 256개 &amp;lt;0x00&amp;gt; … &amp;lt;0xFF&amp;gt;가 어휘에 들어가, 말뭉치에 없던 문자는 미등록 토큰이 되는 대신 UTF-8 바이트로 적힙니다. 비교 패널은 실행마다 바이트 폴백이 있을 때와 없을 때의 미등록 비율을 보여 줍니다.</translation>
    </message>
    <message>
        <source>The hug / pug model above, with p = 0.5:</source>
        <translation>위 hug / pug 모델, p = 0.5:</translation>
    </message>
    <message>
        <source>The four sentences of the Unigram example, 100 pieces, with byte fallback:</source>
        <translation>Unigram 예제의 네 문장, 조각 100개, 바이트 폴백 사용:</translation>
    </message>
    <message>
        <source>and without it (the Korean and the emoji are unknown):</source>
        <translation>바이트 폴백 없이 (한국어와 이모지는 미등록):</translation>
    </message>
    <message>
        <source>SuperBPE</source>
        <translation>SuperBPE</translation>
    </message>
    <message>
        <source>PickyBPE</source>
        <translation>PickyBPE</translation>
    </message>
    <message>
        <source>BPE-dropout and sampling</source>
        <translation>BPE 드롭아웃과 샘플링</translation>
    </message>
    <message>
        <source>SentencePiece and byte fallback</source>
        <translation>SentencePiece와 바이트 폴백</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <source>Subword Explorer — User guide</source>
        <translation>Subword Explorer — 사용 안내서</translation>
    </message>
</context>
<context>
    <name>Headers</name>
    <message>
        <source>Step</source>
        <extracomment>Events the merge log shows as rows of their own between the merges.</extracomment>
        <translation>단계</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>왼쪽</translation>
    </message>
    <message>
        <source>Right</source>
        <translation>오른쪽</translation>
    </message>
    <message>
        <source>New token</source>
        <translation>새 토큰</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>빈도</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>Vocab</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>Phase</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>라운드</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>손실</translation>
    </message>
    <message>
        <source>Removed</source>
        <translation>제거됨</translation>
    </message>
    <message>
        <source>Word</source>
        <translation>단어</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>비율</translation>
    </message>
    <message>
        <source>Char</source>
        <translation>문자</translation>
    </message>
    <message>
        <source>Code point</source>
        <translation>코드 포인트</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>Length</source>
        <translation>길이</translation>
    </message>
    <message>
        <source>Frequency</source>
        <translation>빈도</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>병합</translation>
    </message>
    <message>
        <source>characters of the text the token stands for (##, &lt;/w&gt; left out)</source>
        <translation>토큰이 나타내는 텍스트의 글자 수 (##, &lt;/w&gt; 제외)</translation>
    </message>
    <message>
        <source>uses when encoding the corpus&apos;s {0:,} most frequent words, times their counts</source>
        <translation>말뭉치에서 가장 자주 나오는 단어 {0:,}개를 인코딩할 때 쓰인 횟수 (단어 빈도를 곱함)</translation>
    </message>
    <message>
        <source>Unigram log-probability</source>
        <translation>Unigram 로그 확률</translation>
    </message>
    <message>
        <source>the merge step that created the token (1 = first learned)</source>
        <translation>토큰을 만든 병합 단계 (1 = 가장 먼저 학습됨)</translation>
    </message>
</context>
<context>
    <name>Hygiene</name>
    <message>
        <source>Hygiene: none</source>
        <translation>어휘 점검: 없음</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>도달 불가</translation>
    </message>
    <message>
        <source>undecodable</source>
        <translation>디코딩 불가</translation>
    </message>
    <message>
        <source>never used on the corpus</source>
        <translation>말뭉치에서 한 번도 안 쓰임</translation>
    </message>
    <message>
        <source>intermediate-only</source>
        <translation>중간 단계 전용</translation>
    </message>
    <message>
        <source>byte and control pieces</source>
        <translation>바이트·제어 조각</translation>
    </message>
    <message>
        <source>Tint the tokens of one vocabulary-hygiene list</source>
        <translation>어휘 점검 목록 하나의 토큰에 색을 입힙니다</translation>
    </message>
    <message>
        <source>Tokens that encoding their own text never produces (Land &amp; Bartolo 2024, “Fishing for Magikarp”)</source>
        <translation>자기 텍스트를 인코딩해도 결코 나오지 않는 토큰 (Land &amp; Bartolo 2024, “Fishing for Magikarp”)</translation>
    </message>
    <message>
        <source>Tokens that do not decode to whole characters (a part of a UTF-8 character)</source>
        <translation>온전한 문자로 디코딩되지 않는 토큰 (UTF-8 문자의 일부)</translation>
    </message>
    <message>
        <source>Tokens the corpus&apos;s most frequent words never use (the Frequency column&apos;s count)</source>
        <translation>말뭉치에서 가장 잦은 단어들이 한 번도 쓰지 않는 토큰 (빈도 열의 집계)</translation>
    </message>
    <message>
        <source>Unused tokens that are a part of some merge: steps towards other tokens (PickyBPE, Chizhov et al. 2024)</source>
        <translation>쓰이지 않지만 어떤 병합의 일부인 토큰: 다른 토큰으로 가는 중간 단계 (PickyBPE, Chizhov et al. 2024)</translation>
    </message>
    <message>
        <source>Byte-fallback pieces &lt;0xNN&gt;, bytes of a character, and control or private-use characters</source>
        <translation>바이트 대체 조각 &lt;0xNN&gt;, 문자의 바이트, 제어 문자나 사용자 정의 문자</translation>
    </message>
</context>
<context>
    <name>KoreanStudy</name>
    <message>
        <source>Training {0} tokenizers on {1:,} lines…</source>
        <translation>{1:,}줄로 토크나이저 {0}개를 학습하는 중…</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소했습니다.</translation>
    </message>
    <message>
        <source>Training {0} ({1} of {2})…</source>
        <translation>{0} 학습 중 ({2}개 중 {1}번째)…</translation>
    </message>
    <message>
        <source>⚠ {0}</source>
        <translation>⚠ {0}</translation>
    </message>
    <message>
        <source>Korean study</source>
        <translation>한국어 연구</translation>
    </message>
    <message>
        <source>{0}: {1:,} tokens each; the three runs are open side by side in Compare.</source>
        <translation>{0}: 각각 토큰 {1:,}개. 세 실행이 비교 패널에 나란히 열려 있습니다.</translation>
    </message>
</context>
<context>
    <name>KoreanStudyWindow</name>
    <message>
        <source>One corpus, one vocab size, three ways for BPE to see Korean: syllables (metaspace), jamo (the jamo normalizer: ~70 letters, tokens may end inside a syllable), and morphemes first (ko-morph, kiwipiepy: no token crosses a morpheme, as in Park et al. 2020). Figures are over held-out lines (every 20th); a word is a space-separated word (어절) for all three.</source>
        <translation>말뭉치 하나, 어휘 크기 하나, BPE가 한국어를 보는 세 가지 방식: 음절(metaspace), 자모(자모 정규화기: 약 70자, 토큰이 음절 안에서 끝날 수 있음), 형태소 먼저(ko-morph, kiwipiepy: Park 외 2020처럼 어떤 토큰도 형태소를 넘지 않음). 수치는 검증용 줄(20줄마다 하나)에 대한 것이며, 세 방식 모두 단어는 띄어쓰기 단위(어절)입니다.</translation>
    </message>
    <message>
        <source>Korean study: syllable, jamo and morpheme-aware BPE</source>
        <translation>한국어 연구: 음절, 자모, 형태소 인식 BPE</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>pipeline</source>
        <translation>파이프라인</translation>
    </message>
    <message>
        <source>vocab</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>tokens per word</source>
        <translation>단어당 토큰</translation>
    </message>
    <message>
        <source>characters per token</source>
        <translation>토큰당 문자</translation>
    </message>
    <message>
        <source>unknown rate</source>
        <translation>미등록 비율</translation>
    </message>
    <message>
        <source>vocabulary used</source>
        <translation>어휘 사용률</translation>
    </message>
    <message>
        <source>morpheme boundary F1</source>
        <translation>형태소 경계 F1</translation>
    </message>
    <message>
        <source>How well token boundaries inside words fall on kiwipiepy&apos;s morpheme boundaries, on held-out lines: the F1 of boundary precision and recall (MorphScore, Arnett &amp; Bergen 2024; the question of Park et al. 2020)</source>
        <translation>단어 안의 토큰 경계가 kiwipiepy의 형태소 경계와 얼마나 맞는지, 떼어 둔 줄에서 잰 경계 정밀도와 재현율의 F1 (MorphScore, Arnett &amp; Bergen 2024; Park et al. 2020의 물음)</translation>
    </message>
    <message>
        <source>vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>닫기</translation>
    </message>
    <message>
        <source>precision {0:.3f}, recall {1:.3f} ({2:,} of {3:,} morpheme boundaries)</source>
        <translation>정밀도 {0:.3f}, 재현율 {1:.3f} (형태소 경계 {3:,}개 중 {2:,}개)</translation>
    </message>
</context>
<context>
    <name>Labels</name>
    <message>
        <source>Shown (slider)</source>
        <translation>보이는 모델 (슬라이더)</translation>
    </message>
    <message>
        <source>Full trained</source>
        <translation>학습된 전체</translation>
    </message>
    <message>
        <source>Full cut to size…</source>
        <translation>전체를 크기로 자르기…</translation>
    </message>
    <message>
        <source>File…</source>
        <translation>파일…</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>words</source>
        <translation>단어</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <source>tokens / word</source>
        <translation>토큰 / 단어</translation>
    </message>
    <message>
        <source>chars / token</source>
        <translation>문자 / 토큰</translation>
    </message>
    <message>
        <source>unknown tokens</source>
        <translation>미등록 토큰</translation>
    </message>
    <message>
        <source>unknown rate</source>
        <translation>미등록 비율</translation>
    </message>
    <message>
        <source>byte-fallback tokens</source>
        <translation>바이트 폴백 토큰</translation>
    </message>
    <message>
        <source>unknown rate without byte fallback</source>
        <translation>바이트 폴백 없을 때 미등록 비율</translation>
    </message>
    <message>
        <source>distinct tokens used</source>
        <translation>쓰인 서로 다른 토큰</translation>
    </message>
    <message>
        <source>vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>vocab used</source>
        <translation>어휘 사용률</translation>
    </message>
    <message>
        <source>unknown %</source>
        <translation>미등록 %</translation>
    </message>
    <message>
        <source>vocab used %</source>
        <translation>어휘 사용률 %</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>줄</translation>
    </message>
    <message>
        <source>Characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <source>Words</source>
        <translation>단어</translation>
    </message>
    <message>
        <source>Distinct words</source>
        <translation>서로 다른 단어</translation>
    </message>
    <message>
        <source>Distinct characters</source>
        <translation>서로 다른 문자</translation>
    </message>
    <message>
        <source>Replaced bytes</source>
        <translation>대체된 바이트</translation>
    </message>
    <message>
        <source>Encoding</source>
        <translation>인코딩</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Open &amp;corpus…</source>
        <translation>말뭉치 열기(&amp;C)…</translation>
    </message>
    <message>
        <source>Count a text file (UTF-8, CP949 or EUC-KR)</source>
        <translation>텍스트 파일의 단어를 셉니다 (UTF-8, CP949, EUC-KR)</translation>
    </message>
    <message>
        <source>Open &amp;word counts…</source>
        <translation>단어 빈도 파일 열기(&amp;W)…</translation>
    </message>
    <message>
        <source>Open a word&lt;TAB&gt;count file</source>
        <translation>단어&lt;TAB&gt;빈도 파일을 엽니다</translation>
    </message>
    <message>
        <source>Open &amp;tokenizer…</source>
        <translation>토크나이저 열기(&amp;T)…</translation>
    </message>
    <message>
        <source>Open tokenizer.json, a SentencePiece model, vocab.json+merges.txt…</source>
        <translation>tokenizer.json, SentencePiece 모델, vocab.json+merges.txt 등을 엽니다…</translation>
    </message>
    <message>
        <source>&amp;Save tokenizer</source>
        <translation>토크나이저 저장(&amp;S)</translation>
    </message>
    <message>
        <source>Save the shown tokenizer again where it was last saved (else ask where)</source>
        <translation>보이는 토크나이저를 마지막으로 저장한 곳에 다시 저장합니다 (없으면 위치를 묻습니다)</translation>
    </message>
    <message>
        <source>&amp;Save tokenizer as…</source>
        <translation>다른 이름으로 토크나이저 저장(&amp;S)…</translation>
    </message>
    <message>
        <source>Save the shown tokenizer (cut to the slider&apos;s size)</source>
        <translation>보이는 토크나이저를 저장합니다 (슬라이더 크기로 자른 상태)</translation>
    </message>
    <message>
        <source>&amp;Export merge log…</source>
        <translation>병합 기록 내보내기(&amp;E)…</translation>
    </message>
    <message>
        <source>Write the merge log as CSV or JSON lines</source>
        <translation>병합 기록을 CSV 또는 JSON lines로 씁니다</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>학습(&amp;T)</translation>
    </message>
    <message>
        <source>Train on the loaded corpus</source>
        <translation>불러온 말뭉치로 학습합니다</translation>
    </message>
    <message>
        <source>&amp;Step one merge</source>
        <translation>한 번 병합(&amp;S)</translation>
    </message>
    <message>
        <source>Advance one merge at a time</source>
        <translation>병합을 한 번씩 진행합니다</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <source>Cancel counting or training (Esc)</source>
        <translation>세기 또는 학습을 취소합니다 (Esc)</translation>
    </message>
    <message>
        <source>Copy &amp;tokens</source>
        <translation>토큰 복사(&amp;T)</translation>
    </message>
    <message>
        <source>Copy the tokens of the Segmentation text (a JSON list per line)</source>
        <translation>분절 패널 텍스트의 토큰을 복사합니다 (줄마다 JSON 목록)</translation>
    </message>
    <message>
        <source>Copy &amp;ids</source>
        <translation>ID 복사(&amp;I)</translation>
    </message>
    <message>
        <source>Copy the token ids of the Segmentation text (a JSON list per line)</source>
        <translation>분절 패널 텍스트의 토큰 ID를 복사합니다 (줄마다 JSON 목록)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>실행 취소(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>잘라내기(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>복사(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>붙여넣기(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>모두 선택(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;User guide</source>
        <translation>사용 안내서(&amp;U)</translation>
    </message>
    <message>
        <source>A short illustrated guide</source>
        <translation>그림이 있는 짧은 안내서</translation>
    </message>
    <message>
        <source>&amp;About Subword Explorer</source>
        <translation>Subword Explorer 정보(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Recent files</source>
        <translation>최근 파일(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <source>E&amp;xamples</source>
        <translation>예제(&amp;X)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>학습</translation>
    </message>
    <message>
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>Segmentation</source>
        <translation>분절</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>불러오는 중…</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>실행 기록</translation>
    </message>
    <message>
        <source>Reset &amp;layout</source>
        <translation>배치 초기화(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>시스템 기본값</translation>
    </message>
    <message>
        <source>The language changes when Subword Explorer starts again.</source>
        <translation>Subword Explorer를 다시 시작하면 언어가 바뀝니다.</translation>
    </message>
    <message>
        <source>This session&apos;s other run comes back with it.</source>
        <translation>이 세션의 다른 실행 1개도 함께 돌아옵니다.</translation>
    </message>
    <message>
        <source>This session&apos;s {0} other runs come back with it.</source>
        <translation>이 세션의 다른 실행 {0}개도 함께 돌아옵니다.</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>언어</translation>
    </message>
    <message>
        <source>Casing:</source>
        <translation>대소문자:</translation>
    </message>
    <message>
        <source>1 thing not kept</source>
        <translation>담지 못한 것 1개</translation>
    </message>
    <message>
        <source>{0} things not kept</source>
        <translation>담지 못한 것 {0}개</translation>
    </message>
    <message>
        <source>{0} — {1}, listed in the dialog</source>
        <translation>{0} — {1}, 대화상자에 적었습니다</translation>
    </message>
    <message>
        <source>Saved {0}</source>
        <translation>{0} 저장</translation>
    </message>
    <message>
        <source>Saved {0} ({1}). The file does not keep:</source>
        <translation>{0}을(를) 저장했습니다 ({1}). 이 파일에 담기지 않는 것:</translation>
    </message>
    <message>
        <source>The language changes when Subword Explorer starts again. Restart now?</source>
        <translation>Subword Explorer를 다시 시작하면 언어가 바뀝니다. 지금 다시 시작할까요?</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <translation>시스템(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <source>No corpus</source>
        <translation>말뭉치 없음</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>모델 없음</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>학습 실패</translation>
    </message>
    <message>
        <source>&amp;{0} {1}  ({2})</source>
        <translation>&amp;{0} {1}  ({2})</translation>
    </message>
    <message>
        <source>(no examples bundled)</source>
        <translation>(포함된 예제 없음)</translation>
    </message>
    <message>
        <source>Korean study: syllable, jamo and morpheme-aware BPE (sample corpus)</source>
        <translation>한국어 연구: 음절, 자모, 형태소 인식 BPE (예시 말뭉치)</translation>
    </message>
    <message>
        <source>Train BPE three ways on the bundled Korean sample at one vocab size and compare them</source>
        <translation>포함된 한국어 예시로 같은 어휘 크기에서 BPE를 세 가지 방식으로 학습해 비교합니다</translation>
    </message>
    <message>
        <source>Korean study</source>
        <translation>한국어 연구</translation>
    </message>
    <message>
        <source>Example</source>
        <translation>예제</translation>
    </message>
    <message>
        <source>{0}: {1}</source>
        <translation>{0}: {1}</translation>
    </message>
    <message>
        <source>The example set its own training options ({label}, {size} tokens); yours come back when you open a corpus</source>
        <translation>예제가 자체 학습 옵션({label}, 토큰 {size}개)을 설정했습니다. 말뭉치를 열면 사용자 옵션이 돌아옵니다</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>열 수 없음</translation>
    </message>
    <message>
        <source>{0}: no such file or folder</source>
        <translation>{0}: 그런 파일이나 폴더가 없습니다</translation>
    </message>
    <message>
        <source>{0} is a folder, not a corpus file</source>
        <translation>{0}은(는) 말뭉치 파일이 아니라 폴더입니다</translation>
    </message>
    <message>
        <source>Training options are yours again (the example had set its own)</source>
        <translation>학습 옵션을 사용자 설정으로 되돌렸습니다 (예제가 자체 옵션을 썼습니다)</translation>
    </message>
    <message>
        <source>Open tokenizer</source>
        <translation>토크나이저 열기</translation>
    </message>
    <message>
        <source>Restart</source>
        <translation>다시 시작</translation>
    </message>
    <message>
        <source>Could not keep this session&apos;s runs: {0}</source>
        <translation>이 세션의 실행을 보관하지 못했습니다: {0}</translation>
    </message>
    <message>
        <source>The bundled sample corpus ({0})</source>
        <translation>함께 제공되는 예시 말뭉치 ({0})</translation>
    </message>
    <message>
        <source>Open corpus</source>
        <translation>말뭉치 열기</translation>
    </message>
    <message>
        <source>Text files (*.txt *.text *.tsv *.csv);;All files (*)</source>
        <translation>텍스트 파일 (*.txt *.text *.tsv *.csv);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Open word counts</source>
        <translation>단어 빈도 파일 열기</translation>
    </message>
    <message>
        <source>Word counts (*.tsv *.counts *.txt);;All files (*)</source>
        <translation>단어 빈도 (*.tsv *.counts *.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Opening tokenizer files is not available in this build yet.</source>
        <translation>이 빌드에서는 아직 토크나이저 파일을 열 수 없습니다.</translation>
    </message>
    <message>
        <source>Cannot open tokenizer</source>
        <translation>토크나이저를 열 수 없음</translation>
    </message>
    <message>
        <source>Opened {0} ({1})</source>
        <translation>{0}을(를) 열었습니다 ({1})</translation>
    </message>
    <message>
        <source>1 note</source>
        <translation>알림 1개</translation>
    </message>
    <message>
        <source>{0} notes</source>
        <translation>알림 {0}개</translation>
    </message>
    <message>
        <source>{0}: {1}, shown in the dialog</source>
        <translation>{0}: {1}, 대화상자에 보였습니다</translation>
    </message>
    <message>
        <source>Opened {0}</source>
        <translation>{0} 열기</translation>
    </message>
    <message>
        <source>What {0} does not say, and what was assumed:</source>
        <translation>{0}에 적혀 있지 않은 것과 대신 가정한 것:</translation>
    </message>
    <message>
        <source>Save tokenizer</source>
        <translation>토크나이저 저장</translation>
    </message>
    <message>
        <source>There is no tokenizer to save: train or open one first.</source>
        <translation>저장할 토크나이저가 없습니다. 먼저 학습하거나 여세요.</translation>
    </message>
    <message>
        <source>Save tokenizer as</source>
        <translation>다른 이름으로 토크나이저 저장</translation>
    </message>
    <message>
        <source>Save “{0}” as</source>
        <translation>“{0}”을(를) 다른 이름으로 저장</translation>
    </message>
    <message>
        <source>Saving tokenizer files is not available in this build yet.</source>
        <translation>이 빌드에서는 아직 토크나이저 파일을 저장할 수 없습니다.</translation>
    </message>
    <message>
        <source>Cannot save tokenizer</source>
        <translation>토크나이저를 저장할 수 없음</translation>
    </message>
    <message>
        <source>Saved {0} ({1})</source>
        <translation>{0}을(를) 저장했습니다 ({1})</translation>
    </message>
    <message>
        <source>Export merge log</source>
        <translation>병합 기록 내보내기</translation>
    </message>
    <message>
        <source>There is no merge log: train a BPE or WordPiece model first.</source>
        <translation>병합 기록이 없습니다. 먼저 BPE나 WordPiece 모델을 학습하세요.</translation>
    </message>
    <message>
        <source>Exporting the merge log is not available in this build yet.</source>
        <translation>이 빌드에서는 아직 병합 기록을 내보낼 수 없습니다.</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON lines (*.jsonl)</source>
        <translation>CSV (*.csv);;JSON lines (*.jsonl)</translation>
    </message>
    <message>
        <source>Cannot export merge log</source>
        <translation>병합 기록을 내보낼 수 없음</translation>
    </message>
    <message>
        <source>Wrote {0:,} merges to {1}</source>
        <translation>병합 {0:,}개를 {1}에 썼습니다</translation>
    </message>
    <message>
        <source>Same options, corpus and result as “{0}”: showing it again instead of adding a copy</source>
        <translation>“{0}”와(과) 옵션, 말뭉치, 결과가 같습니다: 사본을 더하지 않고 그 실행을 다시 보여 줍니다</translation>
    </message>
    <message>
        <source>Run {0}: {1} {2}</source>
        <translation>실행 {0}: {1} {2}</translation>
    </message>
    <message>
        <source>Could not keep the run for the next launch: {0}</source>
        <translation>다음 실행을 위해 이 실행 기록을 보관하지 못했습니다: {0}</translation>
    </message>
    <message>
        <source>Cannot restore the last run</source>
        <translation>마지막 실행 기록을 되살릴 수 없음</translation>
    </message>
    <message>
        <source>The last run is restored in part</source>
        <translation>마지막 실행을 일부만 복원했습니다</translation>
    </message>
    <message>
        <source>Restored the last session&apos;s tokenizer: {0}</source>
        <translation>지난 세션의 토크나이저를 되살렸습니다: {0}</translation>
    </message>
    <message>
        <source>Not kept since the last session, to stay within {0:,} MB (Runs panel): {1}</source>
        <translation>지난 세션에서 {0:,} MB(실행 기록 패널) 안에 머물기 위해 보관하지 않은 실행: {1}</translation>
    </message>
    <message>
        <source>The oldest runs did not fit in the size kept between launches: {0}</source>
        <translation>가장 오래된 실행은 실행 사이에 보관하는 크기에 들어가지 않았습니다: {0}</translation>
    </message>
    <message>
        <source>Nothing to copy: train or open a tokenizer first</source>
        <translation>복사할 것이 없습니다. 먼저 토크나이저를 학습하거나 여세요</translation>
    </message>
    <message>
        <source>Copied {n} {what}</source>
        <translation>{what} {n}줄을 복사했습니다</translation>
    </message>
    <message>
        <source>⚠ {0}</source>
        <translation>⚠ {0}</translation>
    </message>
    <message>
        <source>Cannot open corpus</source>
        <translation>말뭉치를 열 수 없음</translation>
    </message>
    <message>
        <source>{0} · {1:,} lines · {2:,} words · {3:,} distinct</source>
        <translation>{0} · {1:,}줄 · 단어 {2:,}개 · 서로 다른 단어 {3:,}개</translation>
    </message>
    <message>
        <source>{0} — {1}</source>
        <translation>{0} — {1}</translation>
    </message>
    <message>
        <source>{0} · {1:,} tokens</source>
        <translation>{0} · 토큰 {1:,}개</translation>
    </message>
    <message>
        <source> (stepping)</source>
        <translation> (한 단계씩 진행 중)</translation>
    </message>
    <message>
        <source> (cut from {0:,})</source>
        <translation> ({0:,}개에서 자름)</translation>
    </message>
</context>
<context>
    <name>MergeCounts</name>
    <message numerus="yes">
        <source>{0} merge(s) applied, lowest rank first (rank = the order training learned them).</source>
        <translation>
            <numerusform>병합 {0}개 적용, 순위가 낮은 것부터 (순위 = 학습이 배운 순서).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} merge(s) applied, each time the pair whose merged piece scores highest (# = the place of its score among the model&apos;s scores, best first).</source>
        <translation>
            <numerusform>병합 {0}개 적용, 매번 합친 조각의 점수가 가장 높은 쌍부터 (# = 모델의 점수 중 그 점수의 순위, 높은 것부터).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} merge(s) applied, starting from single bytes: each time the adjacent pair whose joined bytes have the lowest rank in the rank file (rank = the joined token&apos;s id).</source>
        <translation>
            <numerusform>병합 {0}개 적용, 한 바이트씩에서 시작해 매번 합친 바이트의 순위가 순위 파일에서 가장 낮은 이웃 쌍부터 (순위 = 합친 토큰의 id).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} spans a space (a superword): built by {1} merge(s), in the order learned</source>
        <translation>
            <numerusform>{0}은(는) 공백을 넘습니다 (슈퍼워드): 학습한 순서대로 병합 {1}번으로 만들어짐</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ReportCard</name>
    <message>
        <source>Compression</source>
        <translation>압축</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>분포</translation>
    </message>
    <message>
        <source>Morphology</source>
        <translation>형태론</translation>
    </message>
    <message>
        <source>Parity</source>
        <translation>언어 간 형평</translation>
    </message>
    <message>
        <source>Hygiene</source>
        <translation>어휘 점검</translation>
    </message>
    <message>
        <source>tokens / word</source>
        <translation>토큰 / 단어</translation>
    </message>
    <message>
        <source>tokens / character</source>
        <translation>토큰 / 문자</translation>
    </message>
    <message>
        <source>tokens / byte</source>
        <translation>토큰 / 바이트</translation>
    </message>
    <message>
        <source>bytes / token</source>
        <translation>바이트 / 토큰</translation>
    </message>
    <message>
        <source>unknown tokens</source>
        <translation>미등록 토큰</translation>
    </message>
    <message>
        <source>baseline: characters, tokens / word</source>
        <translation>기준선: 문자 단위, 토큰 / 단어</translation>
    </message>
    <message>
        <source>baseline: words at this vocab size, unknown</source>
        <translation>기준선: 같은 어휘 크기의 단어 단위, 미등록</translation>
    </message>
    <message>
        <source>Rényi efficiency</source>
        <translation>레니 효율</translation>
    </message>
    <message>
        <source>Shannon efficiency</source>
        <translation>섀넌 효율</translation>
    </message>
    <message>
        <source>vocabulary used</source>
        <translation>어휘 사용률</translation>
    </message>
    <message>
        <source>vocabulary size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>boundary precision</source>
        <translation>경계 정밀도</translation>
    </message>
    <message>
        <source>boundary recall</source>
        <translation>경계 재현율</translation>
    </message>
    <message>
        <source>boundary F1</source>
        <translation>경계 F1</translation>
    </message>
    <message>
        <source>Gini across languages</source>
        <translation>언어 간 지니 계수</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>도달 불가</translation>
    </message>
    <message>
        <source>undecodable</source>
        <translation>디코딩 불가</translation>
    </message>
    <message>
        <source>byte pieces</source>
        <translation>바이트 조각</translation>
    </message>
    <message>
        <source>control pieces</source>
        <translation>제어 문자 조각</translation>
    </message>
    <message>
        <source>never used on the corpus</source>
        <translation>말뭉치에서 한 번도 안 쓰임</translation>
    </message>
    <message>
        <source>intermediate-only</source>
        <translation>중간 단계 전용</translation>
    </message>
    <message>
        <source>special</source>
        <translation>특수</translation>
    </message>
    <message>
        <source>Reading the corpus…</source>
        <translation>말뭉치를 읽는 중…</translation>
    </message>
    <message>
        <source>Counting words…</source>
        <translation>단어를 세는 중…</translation>
    </message>
    <message>
        <source>Finding morpheme boundaries…</source>
        <translation>형태소 경계를 찾는 중…</translation>
    </message>
    <message>
        <source>Encoding the corpus with column {0}…</source>
        <translation>{0} 열로 말뭉치를 인코딩하는 중…</translation>
    </message>
    <message>
        <source>Checking the vocabularies…</source>
        <translation>어휘를 점검하는 중…</translation>
    </message>
    <message>
        <source>Encoding the parallel files…</source>
        <translation>병렬 파일을 인코딩하는 중…</translation>
    </message>
    <message>
        <source>Cutting the model to a few sizes…</source>
        <translation>모델을 몇 가지 크기로 자르는 중…</translation>
    </message>
    <message>
        <source>premium {0}</source>
        <translation>비용 배율 {0}</translation>
    </message>
</context>
<context>
    <name>ReportCardView</name>
    <message>
        <source>Compute report card</source>
        <translation>성적표 계산</translation>
    </message>
    <message>
        <source>Every measure for every column over the corpus (or the text above), in the background</source>
        <translation>말뭉치(또는 위 텍스트)에 대해 모든 열의 모든 지표를 백그라운드에서 계산합니다</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>The order α of Rényi efficiency (Zouhar et al. 2023); 3 as tokenization-scorer; 1 is Shannon&apos;s</source>
        <translation>레니 효율의 차수 α (Zouhar et al. 2023); tokenization-scorer처럼 3; 1이면 섀넌 효율</translation>
    </message>
    <message>
        <source>Rényi α</source>
        <translation>레니 α</translation>
    </message>
    <message>
        <source>Parallel file…</source>
        <translation>병렬 파일…</translation>
    </message>
    <message>
        <source>Add one language of parallel text (one sentence a line, the same lines in every language) to compare each language&apos;s token cost (Petrov et al. 2023)</source>
        <translation>언어별 토큰 비용을 비교하도록 한 언어의 병렬 텍스트를 더합니다 (한 줄에 한 문장, 모든 언어에 같은 줄; Petrov et al. 2023)</translation>
    </message>
    <message>
        <source>Forget the parallel files</source>
        <translation>병렬 파일 지우기</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>보고서 내보내기…</translation>
    </message>
    <message>
        <source>One self-contained HTML file: the tables, the charts, the corpus, options and versions</source>
        <translation>그 자체로 완결된 HTML 파일 하나: 표, 그래프, 말뭉치, 옵션, 버전</translation>
    </message>
    <message>
        <source>Not computed yet.</source>
        <translation>아직 계산하지 않았습니다.</translation>
    </message>
    <message>
        <source>token premium per language</source>
        <translation>언어별 토큰 비용 배율</translation>
    </message>
    <message>
        <source>morpheme boundary F1</source>
        <translation>형태소 경계 F1</translation>
    </message>
    <message>
        <source>Rényi efficiency against vocab size</source>
        <translation>어휘 크기에 따른 레니 효율</translation>
    </message>
    <message>
        <source>Parity</source>
        <translation>언어 간 형평</translation>
    </message>
    <message>
        <source>Alignment F1</source>
        <translation>정렬 F1</translation>
    </message>
    <message>
        <source>Rényi / size</source>
        <translation>레니 / 크기</translation>
    </message>
    <message>
        <source>Parallel text in one language</source>
        <translation>한 언어의 병렬 텍스트</translation>
    </message>
    <message>
        <source>Text files (*.txt);;All files (*)</source>
        <translation>텍스트 파일 (*.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <source>Language of the parallel file</source>
        <translation>병렬 파일의 언어</translation>
    </message>
    <message>
        <source>Language code of {0} (ko, en, ja…):</source>
        <translation>{0}의 언어 코드 (ko, en, ja…):</translation>
    </message>
    <message>
        <source>Parallel: {0}</source>
        <translation>병렬: {0}</translation>
    </message>
    <message>
        <source>add…</source>
        <translation>추가…</translation>
    </message>
    <message>
        <source>the corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <source>the text above</source>
        <translation>위 텍스트</translation>
    </message>
    <message>
        <source>No column has a tokenizer yet.</source>
        <translation>아직 토크나이저가 있는 열이 없습니다.</translation>
    </message>
    <message>
        <source>the trained model</source>
        <translation>학습된 모델</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>취소했습니다.</translation>
    </message>
    <message>
        <source>Computing over {0}…</source>
        <translation>{0}에 대해 계산하는 중…</translation>
    </message>
    <message>
        <source>⚠ {0}</source>
        <translation>⚠ {0}</translation>
    </message>
    <message>
        <source>Over {0}: {1:,} lines, {2:,} words, {3:,} characters. Bold: the best of a row.</source>
        <translation>{0} 기준: {1:,}줄, {2:,}단어, {3:,}문자. 굵은 글씨: 그 행에서 가장 좋은 값.</translation>
    </message>
    <message>
        <source>the best value of this row</source>
        <translation>이 행에서 가장 좋은 값</translation>
    </message>
    <message>
        <source>{0} ({1}, {2}, {3:,} lines)</source>
        <translation>{0} ({1}, {2}, {3:,}줄)</translation>
    </message>
    <message>
        <source>{0} (pivot {1}, {2:,} lines)</source>
        <translation>{0} (기준 언어 {1}, {2:,}줄)</translation>
    </message>
    <message>
        <source>{0} (Rényi α = {1:g})</source>
        <translation>{0} (레니 α = {1:g})</translation>
    </message>
    <message>
        <source>token premium per language: add parallel files</source>
        <translation>언어별 토큰 비용 배율: 병렬 파일을 추가하세요</translation>
    </message>
    <message>
        <source>token premium per language, over {0}</source>
        <translation>언어별 토큰 비용 배율, {0} 대비</translation>
    </message>
    <message>
        <source>morpheme boundary F1: Korean or Japanese text only</source>
        <translation>형태소 경계 F1: 한국어나 일본어 텍스트만</translation>
    </message>
    <message>
        <source>morpheme boundary F1 ({0})</source>
        <translation>형태소 경계 F1 ({0})</translation>
    </message>
    <message>
        <source>Rényi efficiency against vocab size: no model to cut</source>
        <translation>어휘 크기에 따른 레니 효율: 자를 모델이 없습니다</translation>
    </message>
    <message>
        <source>Rényi efficiency against vocab size ({0} cut to each size)</source>
        <translation>어휘 크기에 따른 레니 효율 ({0}을 각 크기로 자름)</translation>
    </message>
    <message>
        <source>Export the report card</source>
        <translation>성적표 내보내기</translation>
    </message>
    <message>
        <source>HTML pages (*.html)</source>
        <translation>HTML 페이지 (*.html)</translation>
    </message>
    <message>
        <source>Replace the file?</source>
        <translation>파일을 바꿀까요?</translation>
    </message>
    <message>
        <source>{0} exists. Replace it with this report card?</source>
        <translation>{0} 파일이 있습니다. 이 성적표로 바꿀까요?</translation>
    </message>
    <message>
        <source>Cannot export the report</source>
        <translation>보고서를 내보낼 수 없습니다</translation>
    </message>
    <message>
        <source>Wrote {0}.</source>
        <translation>{0}에 저장했습니다.</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <source>Split pattern:</source>
        <translation>분할 패턴:</translation>
    </message>
    <message>
        <source>lowercase (an uncased vocabulary)</source>
        <translation>소문자로 (대소문자 구분 없는 어휘)</translation>
    </message>
    <message>
        <source>cased (capitals kept)</source>
        <translation>대소문자 구분 (대문자 유지)</translation>
    </message>
    <message>
        <source>{0} (also {1})</source>
        <translation>{0} ({1}도 같음)</translation>
    </message>
    <message>
        <source>{0} does not store its split pattern: {1} is the one you chose. Choose another below; the text is encoded again.</source>
        <translation>{0}에는 분할 패턴이 저장되어 있지 않습니다: 선택한 패턴은 {1}입니다. 아래에서 다른 패턴을 고르면 텍스트를 다시 인코딩합니다.</translation>
    </message>
    <message>
        <source>{name} holds no normalizer settings: BERT&apos;s is applied with lowercase={lowercase}, the casing you chose, and strip_accents={strip}. Choose the other casing below; the text is encoded again.</source>
        <translation>{name}에는 정규화 설정이 없습니다: BERT의 정규화를 선택한 대소문자 처리 lowercase={lowercase}, strip_accents={strip}(으)로 적용합니다. 아래에서 다른 방식을 고르면 텍스트를 다시 인코딩합니다.</translation>
    </message>
    <message>
        <source>{name} holds no normalizer settings: BERT&apos;s is applied with lowercase={lowercase}, as guessed ({why}), and strip_accents={strip}. Choose the other casing below if the guess is wrong; the text is encoded again.</source>
        <translation>{name}에는 정규화 설정이 없습니다: BERT의 정규화를 추측한 대로 lowercase={lowercase} ({why}), strip_accents={strip}(으)로 적용합니다. 추측이 틀렸다면 아래에서 다른 방식을 고르세요. 텍스트를 다시 인코딩합니다.</translation>
    </message>
    <message>
        <source>{name} does not store its split pattern: assumed {guess} ({why}). Choose another below; the text is encoded again.</source>
        <translation>{name}에는 분할 패턴이 저장되어 있지 않아 {guess}(으)로 가정했습니다 ({why}). 아래에서 다른 패턴을 고르면 텍스트를 다시 인코딩합니다.</translation>
    </message>
</context>
<context>
    <name>RunsModel</name>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>알고리즘</translation>
    </message>
    <message>
        <source>Vocab</source>
        <translation>어휘</translation>
    </message>
    <message>
        <source>Corpus</source>
        <translation>말뭉치</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시간</translation>
    </message>
    <message>
        <source>opened from a file</source>
        <translation>파일에서 엶</translation>
    </message>
    <message>
        <source>no normalizer</source>
        <translation>정규화기 없음</translation>
    </message>
    <message>
        <source>default pre-tokenizer</source>
        <translation>기본 사전 토큰화기</translation>
    </message>
    <message>
        <source>min. freq. {0}</source>
        <translation>최소 빈도 {0}</translation>
    </message>
    <message>
        <source>prefix {0}</source>
        <translation>접두사 {0}</translation>
    </message>
    <message>
        <source>suffix {0}</source>
        <translation>접미사 {0}</translation>
    </message>
    <message>
        <source>+ byte fallback</source>
        <translation>+ 바이트 폴백</translation>
    </message>
    <message>
        <source>Tokens/word</source>
        <translation>토큰/단어</translation>
    </message>
    <message>
        <source>Chars/token</source>
        <translation>문자/토큰</translation>
    </message>
    <message>
        <source>Options</source>
        <translation>옵션</translation>
    </message>
    <message>
        <source>  (shown)</source>
        <translation>  (보이는 중)</translation>
    </message>
    <message>
        <source>Corpus: {0}, {1} words</source>
        <translation>말뭉치: {0}, 단어 {1}개</translation>
    </message>
    <message>
        <source>Corpus: {0}</source>
        <translation>말뭉치: {0}</translation>
    </message>
    <message>
        <source>Options: {0}</source>
        <translation>옵션: {0}</translation>
    </message>
    <message>
        <source>Stopped early: {0}</source>
        <translation>일찍 멈춤: {0}</translation>
    </message>
    <message>
        <source>Figures measured on {0}</source>
        <translation>수치는 {0}에서 쟀습니다</translation>
    </message>
    <message>
        <source>Restored from the last session</source>
        <translation>지난 세션에서 복원했습니다</translation>
    </message>
    <message>
        <source>Restored from the last session (kept without its log by an older version)</source>
        <translation>지난 세션에서 복원했습니다 (이전 버전이 기록 없이 보관했습니다)</translation>
    </message>
    <message>
        <source>Saved to {0}</source>
        <translation>{0}에 저장했습니다</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Every training run of this session appears here. Train one to start.</source>
        <translation>이 세션의 모든 학습 실행이 여기에 나타납니다. 학습을 시작해 보세요.</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>보이기</translation>
    </message>
    <message>
        <source>Make this run&apos;s tokenizer the one every panel shows</source>
        <translation>이 실행의 토크나이저를 모든 패널에 보입니다</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>Add this run as a column of the Compare panel</source>
        <translation>이 실행을 비교 패널의 열로 추가합니다</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>이름 바꾸기</translation>
    </message>
    <message>
        <source>Rename the run (F2)</source>
        <translation>실행 이름 바꾸기 (F2)</translation>
    </message>
    <message>
        <source>Save…</source>
        <translation>저장…</translation>
    </message>
    <message>
        <source>Save this run&apos;s tokenizer, uncut, in any format</source>
        <translation>이 실행의 토크나이저를 자르지 않은 채 원하는 형식으로 저장합니다</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>버리기</translation>
    </message>
    <message>
        <source>Forget this run (Delete)</source>
        <translation>이 실행을 잊습니다 (Delete)</translation>
    </message>
    <message>
        <source>Keep runs between launches up to</source>
        <translation>다음 실행까지 보관할 실행 기록 크기</translation>
    </message>
    <message>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <source>Every run comes back after quitting and launching again, as long as all of them fit in this size on disk; the oldest are dropped first (0: keep only the shown run)</source>
        <translation>종료 후 다시 실행해도 모든 실행 기록이 돌아옵니다. 디스크에서 이 크기를 넘으면 가장 오래된 것부터 버립니다 (0: 보이는 실행만 보관)</translation>
    </message>
</context>
<context>
    <name>SamplesView</name>
    <message>
        <source>Type text here: its samples are drawn as you type.</source>
        <translation>여기에 텍스트를 입력하세요: 입력하는 대로 샘플을 뽑습니다.</translation>
    </message>
    <message>
        <source>The same seed draws the same samples again</source>
        <translation>같은 시드는 같은 샘플을 다시 뽑습니다</translation>
    </message>
    <message>
        <source>Resample</source>
        <translation>다시 뽑기</translation>
    </message>
    <message>
        <source>Draw new samples (the next seed)</source>
        <translation>새 샘플 뽑기 (다음 시드)</translation>
    </message>
    <message>
        <source>samples</source>
        <translation>샘플</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>시드</translation>
    </message>
    <message>
        <source>BPE-dropout p</source>
        <translation>BPE-dropout p</translation>
    </message>
    <message>
        <source>each merge is skipped with this probability (Provilkov et al. 2020)</source>
        <translation>각 병합을 이 확률로 건너뜁니다 (Provilkov 외 2020)</translation>
    </message>
    <message>
        <source>Unigram sampling α</source>
        <translation>Unigram 샘플링 α</translation>
    </message>
    <message>
        <source>a segmentation is drawn with probability ∝ exp(α·score) (Kudo 2018): small α, more variety</source>
        <translation>분절을 exp(α·점수)에 비례하는 확률로 뽑습니다 (Kudo 2018): α가 작을수록 더 다양합니다</translation>
    </message>
    <message>
        <source>Train or open a tokenizer to see its samples.</source>
        <translation>샘플을 보려면 토크나이저를 학습하거나 여세요.</translation>
    </message>
    <message>
        <source>A {0} model cannot sample: BPE-dropout needs a BPE model, sampling a Unigram model.</source>
        <translation>{0} 모델은 샘플링할 수 없습니다: BPE-dropout은 BPE 모델, 샘플링은 Unigram 모델이 필요합니다.</translation>
    </message>
    <message>
        <source>Type some text to see its samples.</source>
        <translation>샘플을 보려면 텍스트를 입력하세요.</translation>
    </message>
    <message>
        <source>deterministic: {0} tokens</source>
        <translation>결정적 분절: 토큰 {0}개</translation>
    </message>
    <message>
        <source>sample {0}: {1} tokens</source>
        <translation>샘플 {0}: 토큰 {1}개</translation>
    </message>
    <message>
        <source>BPE-dropout p = {0:g}</source>
        <translation>BPE-dropout p = {0:g}</translation>
    </message>
    <message>
        <source>Unigram sampling α = {0:g}</source>
        <translation>Unigram 샘플링 α = {0:g}</translation>
    </message>
    <message>
        <source>{0}, seed {1}: on average {2:.1f} tokens against {3} deterministic, &lt;b&gt;{4:+.1%}&lt;/b&gt; length inflation. A mark before a chip: a boundary the deterministic cut does not have.</source>
        <translation>{0}, 시드 {1}: 결정적 분절 {3}개에 비해 평균 {2:.1f}개, 길이 증가 &lt;b&gt;{4:+.1%}&lt;/b&gt;. 칩 앞의 표시: 결정적 분절에는 없는 경계.</translation>
    </message>
    <message>
        <source>(the first {0:,} characters)</source>
        <translation>(처음 {0:,}자)</translation>
    </message>
</context>
<context>
    <name>SegmentationPanel</name>
    <message>
        <source>&lt;span style=&apos;background:#D7191C; color:white; font-weight:bold&apos;&gt;&amp;nbsp;unknown&amp;nbsp;&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;background:#3B4A5A; color:white&apos;&gt;&amp;nbsp;special&amp;nbsp;&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;color:#8A8A8A; text-decoration:line-through&apos;&gt;removed&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;text-decoration:underline&apos;&gt;split character&lt;/span&gt;</source>
        <translation>&lt;span style=&apos;background:#D7191C; color:white; font-weight:bold&apos;&gt;&amp;nbsp;미등록&amp;nbsp;&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;background:#3B4A5A; color:white&apos;&gt;&amp;nbsp;특수&amp;nbsp;&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;color:#8A8A8A; text-decoration:line-through&apos;&gt;제거됨&lt;/span&gt;&amp;nbsp; &lt;span style=&apos;text-decoration:underline&apos;&gt;쪼개진 문자&lt;/span&gt;</translation>
    </message>
    <message>
        <source>Text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>채팅</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>샘플</translation>
    </message>
    <message>
        <source>Several segmentations of the text: BPE-dropout or Unigram sampling</source>
        <translation>텍스트의 여러 분절: BPE-dropout 또는 Unigram 샘플링</translation>
    </message>
    <message>
        <source>Type or paste text here: it is tokenized as you type.</source>
        <translation>여기에 텍스트를 입력하거나 붙여 넣으세요. 입력하는 대로 토큰화됩니다.</translation>
    </message>
    <message>
        <source>Train or open a tokenizer to see the tokens.</source>
        <translation>토크나이저를 학습하거나 열면 토큰이 보입니다.</translation>
    </message>
    <message>
        <source>Loading the morpheme analyser {0}: the tokens show once it answers…</source>
        <translation>형태소 분석기 {0}를 불러오는 중입니다. 분석기가 준비되면 토큰이 표시됩니다…</translation>
    </message>
    <message>
        <source>No tokenizer yet: train one or open a tokenizer file.</source>
        <translation>아직 토크나이저가 없습니다. 학습하거나 토크나이저 파일을 여세요.</translation>
    </message>
    <message>
        <source>Segmenting {0:,} characters in the background… (the text stays editable)</source>
        <translation>문자 {0:,}개를 뒤에서 분절하는 중… (텍스트는 계속 편집할 수 있습니다)</translation>
    </message>
    <message>
        <source>Could not segment this text: {0}</source>
        <translation>이 텍스트를 분절할 수 없습니다: {0}</translation>
    </message>
    <message>
        <source>tokens</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>characters</source>
        <translation>문자</translation>
    </message>
    <message>
        <source>chars/token</source>
        <translation>문자/토큰</translation>
    </message>
    <message>
        <source>tokens/word</source>
        <translation>토큰/단어</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>미등록</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>제거됨</translation>
    </message>
    <message>
        <source>{0} is an added (special) token: it is matched as a whole.</source>
        <translation>{0}은(는) 추가된 (특수) 토큰입니다: 통째로 일치합니다.</translation>
    </message>
    <message>
        <source>This word is {0:,} characters long ({1:,} tokens): the why view explains words of up to {2} characters step by step. Tokens {3:,} to {4:,} of the word, around the cursor:</source>
        <translation>이 단어는 {0:,}자입니다 (토큰 {1:,}개). 이유 보기는 {2}자까지의 단어를 단계별로 설명합니다. 커서 주변, 이 단어의 토큰 {3:,}~{4:,}:</translation>
    </message>
    <message>
        <source>Why this long word was cut this way</source>
        <translation>이 긴 단어가 이렇게 잘린 이유</translation>
    </message>
</context>
<context>
    <name>SentencePieceOptions</name>
    <message>
        <source>SentencePiece options</source>
        <translation>SentencePiece 옵션</translation>
    </message>
    <message>
        <source>spm_train&apos;s options (SentencePiece, Kudo and Richardson 2018)</source>
        <translation>spm_train의 옵션 (SentencePiece, Kudo와 Richardson 2018)</translation>
    </message>
    <message>
        <source>Byte fallback</source>
        <translation>바이트 폴백</translation>
    </message>
    <message>
        <source>Add the 256 byte pieces &lt;0x00&gt;…&lt;0xFF&gt;: a character without a piece is spelled in its UTF-8 bytes, never &lt;unk&gt;</source>
        <translation>바이트 조각 256개(&lt;0x00&gt;…&lt;0xFF&gt;)를 추가합니다: 조각이 없는 문자는 &lt;unk&gt;가 아니라 UTF-8 바이트로 적습니다</translation>
    </message>
    <message>
        <source>Share of the corpus&apos;s characters the alphabet covers; rarer characters are unknown</source>
        <translation>문자 집합이 덮는 코퍼스 문자의 비율; 더 드문 문자는 미등록 문자가 됩니다</translation>
    </message>
    <message>
        <source>Split digits</source>
        <translation>숫자 나누기</translation>
    </message>
    <message>
        <source>Every digit is a piece of its own</source>
        <translation>숫자 하나하나가 각각 조각이 됩니다</translation>
    </message>
    <message>
        <source>Longest piece, in characters</source>
        <translation>가장 긴 조각의 길이(문자 수)</translation>
    </message>
    <message>
        <source>e.g. &lt;sep&gt;,&lt;cls&gt;</source>
        <translation>예: &lt;sep&gt;,&lt;cls&gt;</translation>
    </message>
    <message>
        <source>User-defined symbols, comma-separated: always one piece, never split</source>
        <translation>사용자 정의 기호, 쉼표로 구분: 언제나 한 조각이며 나뉘지 않습니다</translation>
    </message>
    <message>
        <source>Whitespace as suffix</source>
        <translation>공백을 접미사로</translation>
    </message>
    <message>
        <source>▁ ends a word instead of starting it</source>
        <translation>▁가 단어를 시작하지 않고 끝냅니다</translation>
    </message>
    <message>
        <source>Dummy prefix</source>
        <translation>더미 접두사</translation>
    </message>
    <message>
        <source>Put ▁ before each line, so a line&apos;s first word is spelled as any other</source>
        <translation>각 줄 앞에 ▁를 붙여 줄의 첫 단어도 다른 단어처럼 적습니다</translation>
    </message>
    <message>
        <source>Character coverage</source>
        <translation>문자 커버리지</translation>
    </message>
    <message>
        <source>Longest piece</source>
        <translation>최대 조각 길이</translation>
    </message>
    <message>
        <source>User-defined symbols</source>
        <translation>사용자 정의 기호</translation>
    </message>
</context>
<context>
    <name>Tokens</name>
    <message>
        <source>a special token: it stands for no text of its own, so it has no length</source>
        <translation>특수 토큰: 스스로 나타내는 텍스트가 없으므로 길이가 없습니다</translation>
    </message>
    <message>
        <source>{0!r}: removed during training, right after merge {1} (PickyBPE: nearly all of its uses had become part of a longer token); not in the vocabulary</source>
        <translation>{0!r}: 학습 중 병합 {1} 직후 제거됨 (PickyBPE: 쓰임새 거의 전부가 더 긴 토큰의 일부가 됨); 어휘에 없음</translation>
    </message>
    <message>
        <source>not special</source>
        <translation>특수 토큰 아님</translation>
    </message>
    <message>
        <source>added token</source>
        <translation>추가된 토큰</translation>
    </message>
    <message>
        <source>the unknown token: it stands for any text the vocabulary cannot spell</source>
        <translation>미등록 토큰: 어휘로 적을 수 없는 모든 텍스트를 대신합니다</translation>
    </message>
    <message>
        <source>a special token: added whole, never built by merges nor split</source>
        <translation>특수 토큰: 통째로 추가되며 병합으로 만들어지거나 쪼개지지 않습니다</translation>
    </message>
    <message>
        <source>a base token: one of the alphabet&apos;s characters (or bytes), present before the first merge</source>
        <translation>기본 토큰: 알파벳의 문자(또는 바이트) 중 하나로, 첫 병합 전부터 있습니다</translation>
    </message>
    <message>
        <source>base token (alphabet or special), not built by a merge</source>
        <translation>기본 토큰(알파벳 또는 특수), 병합으로 만들지 않음</translation>
    </message>
    <message>
        <source>merge #{0}: {1} + {2}</source>
        <translation>병합 #{0}: {1} + {2}</translation>
    </message>
    <message>
        <source>Unigram piece, log-probability {0:.4f}</source>
        <translation>Unigram 조각, 로그 확률 {0:.4f}</translation>
    </message>
    <message>
        <source>Unigram piece</source>
        <translation>Unigram 조각</translation>
    </message>
    <message>
        <source>WordPiece: longest vocabulary match at this position (a continuation)</source>
        <translation>WordPiece: 이 위치에서 가장 긴 어휘 일치 (이어지는 조각)</translation>
    </message>
    <message>
        <source>WordPiece: longest vocabulary match at this position (a word start)</source>
        <translation>WordPiece: 이 위치에서 가장 긴 어휘 일치 (단어 시작)</translation>
    </message>
    <message>
        <source>(characters, counted from the start of the line)</source>
        <translation>(문자 수, 줄 처음부터 셈)</translation>
    </message>
    <message>
        <source>token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>offsets</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>text</source>
        <translation>텍스트</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>바이트</translation>
    </message>
    <message>
        <source>not in the vocabulary</source>
        <translation>어휘에 없음</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>미등록</translation>
    </message>
    <message>
        <source>superword</source>
        <translation>슈퍼워드</translation>
    </message>
    <message>
        <source>one token across a space (SuperBPE&apos;s stage 2)</source>
        <translation>공백을 넘는 토큰 하나 (SuperBPE 2단계)</translation>
    </message>
    <message>
        <source>special</source>
        <translation>특수</translation>
    </message>
    <message>
        <source>added token, matched before normalization</source>
        <translation>추가된 토큰, 정규화 전에 찾음</translation>
    </message>
    <message>
        <source>origin</source>
        <translation>유래</translation>
    </message>
    <message>
        <source>start</source>
        <translation>시작</translation>
    </message>
    <message>
        <source>rank {0}</source>
        <translation>순위 {0}</translation>
    </message>
    <message>
        <source>the whole piece is a token (rank {0}), so it is taken whole, without joining its bytes</source>
        <translation>조각 전체가 토큰(순위 {0})이므로 바이트를 합치지 않고 통째로 씁니다</translation>
    </message>
    <message>
        <source>no merge applies to this word</source>
        <translation>이 단어에 적용되는 병합이 없습니다</translation>
    </message>
    <message>
        <source>not in the vocabulary (never seen in training), so each becomes the unknown token: {0}</source>
        <translation>어휘에 없는 문자(학습 때 본 적 없음)라서 각각 미등록 토큰이 됩니다: {0}</translation>
    </message>
    <message>
        <source>not in the vocabulary, so each is written as its UTF-8 bytes (byte fallback): {0}</source>
        <translation>어휘에 없어서 각각 UTF-8 바이트로 적힙니다 (바이트 대체): {0}</translation>
    </message>
    <message>
        <source>longest match</source>
        <translation>가장 긴 일치</translation>
    </message>
    <message>
        <source>at {0}</source>
        <translation>{0}번째</translation>
    </message>
    <message>
        <source>no vocabulary entry matches here</source>
        <translation>여기서 맞는 어휘 항목이 없습니다</translation>
    </message>
    <message>
        <source>after 1 longer string not in the vocabulary</source>
        <translation>어휘에 없는 더 긴 문자열 1개를 지나서</translation>
    </message>
    <message>
        <source>after {0} longer strings not in the vocabulary</source>
        <translation>어휘에 없는 더 긴 문자열 {0}개를 지나서</translation>
    </message>
    <message>
        <source>&lt;b style=&apos;color:{0}&apos;&gt;So the whole word becomes {1}&lt;/b&gt;, as BERT does.</source>
        <translation>&lt;b style=&apos;color:{0}&apos;&gt;그래서 단어 전체가 {1}이(가) 됩니다&lt;/b&gt;. BERT도 그렇게 합니다.</translation>
    </message>
    <message>
        <source>Greedy longest match first, left to right.</source>
        <translation>왼쪽에서 오른쪽으로, 가장 긴 일치를 먼저 고릅니다.</translation>
    </message>
    <message>
        <source>best  {0:.2f}</source>
        <translation>최선  {0:.2f}</translation>
    </message>
    <message>
        <source>… and {0} more candidates</source>
        <translation>… 그리고 후보 {0}개 더</translation>
    </message>
    <message>
        <source>The best segmentations (sum of log-probabilities; relative probability to the best):</source>
        <translation>가장 좋은 분할들 (로그 확률의 합, 최선 대비 상대 확률):</translation>
    </message>
    <message>
        <source>Sampled segmentations (subword regularization, α = {0}):</source>
        <translation>표본 분할 (서브워드 정규화, α = {0}):</translation>
    </message>
    <message>
        <source>This model does not explain its choices.</source>
        <translation>이 모델은 자신의 선택을 설명하지 않습니다.</translation>
    </message>
    <message>
        <source>superwords (across spaces)</source>
        <translation>슈퍼워드 (공백을 넘어)</translation>
    </message>
    <message>
        <source>stage {0}: {1} from vocab {2:,}</source>
        <translation>{0}단계: 어휘 {2:,}부터 {1}</translation>
    </message>
    <message>
        <source>removed ‹{0}›</source>
        <translation>제거됨 ‹{0}›</translation>
    </message>
    <message>
        <source>removed ‹{0}› (IoS {1:.2f})</source>
        <translation>제거됨 ‹{0}› (IoS {1:.2f})</translation>
    </message>
    <message>
        <source>: its uses become {0}</source>
        <translation>: 쓰임새는 {0}(으)로 바뀜</translation>
    </message>
    <message>
        <source>A superword: this token spans a space (SuperBPE&apos;s stage 2).</source>
        <translation>슈퍼워드: 이 토큰은 공백을 넘습니다 (SuperBPE 2단계).</translation>
    </message>
    <message>
        <source>PickyBPE removed this token right after merge {0}: almost all of its uses had just been merged into a longer token (intersection over self above τ).</source>
        <translation>PickyBPE가 병합 {0} 직후 이 토큰을 제거했습니다: 쓰임새 거의 전부가 방금 더 긴 토큰으로 병합되었습니다 (IoS가 τ 초과).</translation>
    </message>
    <message>
        <source>Stage {0} begins after {1:,} merges (vocab {2:,}). From here on the merges may cross spaces: SuperBPE&apos;s superwords.</source>
        <translation>{0}단계는 병합 {1:,}번 뒤(어휘 {2:,})에 시작합니다. 여기부터 병합이 공백을 넘을 수 있습니다: SuperBPE의 슈퍼워드.</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>e.g. ##</source>
        <translation>예: ##</translation>
    </message>
    <message>
        <source>e.g. &lt;/w&gt;</source>
        <translation>예: &lt;/w&gt;</translation>
    </message>
    <message>
        <source>PickyBPE removes a merged token once more than this share of its occurrences sit in one merge (intersection over self); 1 is plain BPE</source>
        <translation>PickyBPE는 병합된 토큰의 출현 중 이 비율보다 많은 몫이 한 병합 안에 있으면(IoS, intersection over self) 그 토큰을 지웁니다. 1이면 보통 BPE입니다</translation>
    </message>
    <message>
        <source>SuperBPE learns ordinary subwords up to this share of the vocabulary (the transition point t), then superwords that cross spaces; 100 % is plain byte-level BPE</source>
        <translation>SuperBPE는 어휘의 이 비율(전환점 t)까지 보통 서브워드를 배우고, 그다음 공백을 넘는 슈퍼워드를 배웁니다. 100 %는 보통 바이트 수준 BPE입니다</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>학습</translation>
    </message>
    <message>
        <source>Train on the loaded corpus (Ctrl+T)</source>
        <translation>불러온 말뭉치로 학습합니다 (Ctrl+T)</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>단계</translation>
    </message>
    <message>
        <source>Advance one merge at a time (Ctrl+Shift+T)</source>
        <translation>병합을 한 번씩 진행합니다 (Ctrl+Shift+T)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop training; the previous model stays (Esc)</source>
        <translation>학습을 멈춥니다. 이전 모델은 그대로입니다 (Esc)</translation>
    </message>
    <message>
        <source>Ready to train</source>
        <translation>학습 준비 완료</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>알고리즘</translation>
    </message>
    <message>
        <source>Normalizer</source>
        <translation>정규화기</translation>
    </message>
    <message>
        <source>Pre-tokenizer</source>
        <translation>사전 토큰화기</translation>
    </message>
    <message>
        <source>Special tokens</source>
        <translation>특수 토큰</translation>
    </message>
    <message>
        <source>Vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>Min. frequency</source>
        <translation>최소 빈도</translation>
    </message>
    <message>
        <source>Subword prefix</source>
        <translation>서브워드 접두사</translation>
    </message>
    <message>
        <source>Word suffix</source>
        <translation>단어 접미사</translation>
    </message>
    <message>
        <source>PickyBPE τ</source>
        <translation>PickyBPE τ</translation>
    </message>
    <message>
        <source>SuperBPE t</source>
        <translation>SuperBPE t</translation>
    </message>
    <message>
        <source>Merge log</source>
        <translation>병합 기록</translation>
    </message>
    <message>
        <source>Unigram rounds</source>
        <translation>Unigram 라운드</translation>
    </message>
    <message>
        <source>Merge counts</source>
        <translation>병합 빈도</translation>
    </message>
    <message>
        <source>Unigram</source>
        <translation>Unigram</translation>
    </message>
    <message>
        <source>Held-out curve</source>
        <translation>검증 곡선</translation>
    </message>
    <message>
        <source>none</source>
        <comment>no normalizer or pre-tokenizer</comment>
        <translation>없음</translation>
    </message>
    <message>
        <source>⚠ {0}</source>
        <translation>⚠ {0}</translation>
    </message>
    <message>
        <source>Running to the end…</source>
        <translation>끝까지 진행하는 중…</translation>
    </message>
    <message>
        <source>Load a corpus first (File › Open corpus…).</source>
        <translation>먼저 말뭉치를 여세요 (파일 › 말뭉치 열기…).</translation>
    </message>
    <message>
        <source>Training…</source>
        <translation>학습 중…</translation>
    </message>
    <message>
        <source>Counting the corpus under this pipeline…</source>
        <translation>이 파이프라인으로 말뭉치를 세는 중…</translation>
    </message>
    <message>
        <source>{0:.0%}</source>
        <translation>{0:.0%}</translation>
    </message>
    <message>
        <source>{0:.0%} · about {1} left</source>
        <translation>{0:.0%} · 약 {1} 남음</translation>
    </message>
    <message>
        <source>Unigram {0} round {1}: vocab {2:,}, loss {3:,.1f}</source>
        <translation>Unigram {0} 라운드 {1}: 어휘 {2:,}, 손실 {3:,.1f}</translation>
    </message>
    <message>
        <source>{0}… {1:.0%}</source>
        <translation>{0}… {1:.0%}</translation>
    </message>
    <message>
        <source>Trained {0}: {1:,} tokens</source>
        <translation>{0} 학습 완료: 토큰 {1:,}개</translation>
    </message>
    <message>
        <source> (stopped early: {0})</source>
        <translation> (일찍 멈춤: {0})</translation>
    </message>
    <message>
        <source>Measuring {0:,} {1} at ~10 vocab sizes…</source>
        <translation>{1} {0:,}개로 어휘 크기 약 10가지를 재는 중…</translation>
    </message>
    <message>
        <source>No held-out text for this corpus.</source>
        <translation>이 말뭉치에는 검증용 텍스트가 없습니다.</translation>
    </message>
    <message>
        <source>Could not measure the curve: {0}</source>
        <translation>곡선을 잴 수 없습니다: {0}</translation>
    </message>
    <message>
        <source>Training failed</source>
        <translation>학습 실패</translation>
    </message>
    <message>
        <source>Curve not measured (cancelled).</source>
        <translation>곡선을 재지 않았습니다 (취소됨).</translation>
    </message>
    <message>
        <source>Cancelled; the previous model is unchanged</source>
        <translation>취소했습니다. 이전 모델은 그대로입니다</translation>
    </message>
    <message>
        <source>Held-out curve of {0}.</source>
        <translation>{0}의 검증용 곡선입니다.</translation>
    </message>
    <message>
        <source>No held-out curve was measured for this model.</source>
        <translation>이 모델은 검증용 곡선을 측정하지 않았습니다.</translation>
    </message>
    <message>
        <source>Its normalizer ({0}) has no exact choice here: the nearest is shown.</source>
        <translation>이 파일의 정규화기({0})와 똑같은 선택지가 없어 가장 가까운 것을 보여 줍니다.</translation>
    </message>
    <message>
        <source>Showing {0}, restored from the last session with its log.</source>
        <translation>{0}을(를) 보여 줍니다. 지난 세션에서 기록과 함께 복원했습니다.</translation>
    </message>
    <message>
        <source>Showing {0}, restored from the last session: it was opened from a file, and a tokenizer file keeps no log of how it was trained.</source>
        <translation>{0}을(를) 보여 줍니다. 지난 세션에서 복원했습니다. 파일에서 연 모델이며, 토크나이저 파일에는 학습 기록이 남지 않습니다.</translation>
    </message>
    <message>
        <source>Showing {0}, restored from the last session (kept without its log by an older version).</source>
        <translation>{0}을(를) 보여 줍니다. 지난 세션에서 복원했습니다(이전 버전이 기록 없이 보관했습니다).</translation>
    </message>
    <message>
        <source>Showing {0}, trained this session.</source>
        <translation>{0}을(를) 보여 줍니다. 이번 세션에서 학습했습니다.</translation>
    </message>
    <message>
        <source>Showing {0}: no log was kept for this run.</source>
        <translation>{0}을(를) 보여 줍니다. 이 실행의 기록은 보관되지 않았습니다.</translation>
    </message>
    <message>
        <source>Showing {0}, opened from a file: a tokenizer file keeps no log of how it was trained.</source>
        <translation>파일에서 연 {0}을(를) 보여 줍니다. 토크나이저 파일에는 학습 과정의 기록이 없습니다.</translation>
    </message>
    <message>
        <source>Score of each merge (what ranked it)</source>
        <translation>병합마다의 점수 (순위를 정한 값)</translation>
    </message>
    <message>
        <source>Pair count of each merge</source>
        <translation>병합마다의 쌍 빈도</translation>
    </message>
    <message>
        <source>merge step</source>
        <translation>병합 단계</translation>
    </message>
    <message>
        <source>Unigram per round: &lt;span style=&apos;color:{0}&apos;&gt;● loss&lt;/span&gt; (left) and &lt;span style=&apos;color:{1}&apos;&gt;■ vocab size&lt;/span&gt; (right)</source>
        <translation>라운드별 Unigram: &lt;span style=&apos;color:{0}&apos;&gt;● 손실&lt;/span&gt;(왼쪽)과 &lt;span style=&apos;color:{1}&apos;&gt;■ 어휘 크기&lt;/span&gt;(오른쪽)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>손실</translation>
    </message>
    <message>
        <source>Held-out text: &lt;span style=&apos;color:{0}&apos;&gt;● tokens per word&lt;/span&gt; and &lt;span style=&apos;color:{1}&apos;&gt;▼ characters per token&lt;/span&gt;</source>
        <translation>검증 텍스트: &lt;span style=&apos;color:{0}&apos;&gt;● 단어당 토큰&lt;/span&gt;과 &lt;span style=&apos;color:{1}&apos;&gt;▼ 토큰당 문자&lt;/span&gt;</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>비율</translation>
    </message>
    <message>
        <source>vocab size</source>
        <translation>어휘 크기</translation>
    </message>
    <message>
        <source>score</source>
        <translation>점수</translation>
    </message>
    <message>
        <source>count</source>
        <translation>빈도</translation>
    </message>
    <message>
        <source>EM round (prune steps between)</source>
        <translation>EM 라운드 (사이에 가지치기 단계)</translation>
    </message>
    <message>
        <source>Comma-separated: {0}</source>
        <translation>쉼표로 구분: {0}</translation>
    </message>
    <message>
        <source>e.g. &lt;unk&gt;,&lt;s&gt;</source>
        <translation>예: &lt;unk&gt;,&lt;s&gt;</translation>
    </message>
    <message>
        <source>Special tokens, comma-separated (e.g. &lt;unk&gt;,&lt;s&gt;,&lt;/s&gt;): each is added whole, never split</source>
        <translation>특수 토큰, 쉼표로 구분 (예: &lt;unk&gt;,&lt;s&gt;,&lt;/s&gt;): 각각 통째로 추가되고 쪼개지지 않습니다</translation>
    </message>
    <message>
        <source>This corpus</source>
        <translation>이 말뭉치</translation>
    </message>
    <message>
        <source>⚠ {0} has {1:,} distinct characters: a vocab size of {2:,} leaves no room for merges. Try {3:,} or more.</source>
        <translation>⚠ {0}에는 서로 다른 문자가 {1:,}개 있습니다. 어휘 크기 {2:,}(으)로는 병합할 자리가 없습니다. {3:,} 이상으로 해 보세요.</translation>
    </message>
    <message>
        <source>⚠ {0} has {1:,} distinct characters under the {2} normalizer: a vocab size of {3:,} leaves no room for merges. Try {4:,} or more.</source>
        <translation>⚠ {0}에는 {2} 정규화를 거친 뒤 서로 다른 문자가 {1:,}개 있습니다. 어휘 크기 {3:,}(으)로는 병합할 자리가 없습니다. {4:,} 이상으로 해 보세요.</translation>
    </message>
    <message>
        <source>Stepped to step {0:,}: {1} + {2} → {3}  (vocab {4:,} of {5:,})</source>
        <translation>{0:,}단계로 진행: {1} + {2} → {3}  (어휘 {4:,} / {5:,})</translation>
    </message>
    <message>
        <source>Merging… step {0:,}: {1} + {2} → {3}  (vocab {4:,} of {5:,})</source>
        <translation>병합 중… {0:,}단계: {1} + {2} → {3}  (어휘 {4:,} / {5:,})</translation>
    </message>
    <message>
        <source>Merge scores</source>
        <translation>병합 점수</translation>
    </message>
    <message>
        <source>On {0:,} {1}: at {2:,} tokens, {3:.2f} tokens per word, {4:.2f} characters per token</source>
        <translation>{1} {0:,}개 기준: 토큰 {2:,}개일 때 단어당 토큰 {3:.2f}개, 토큰당 문자 {4:.2f}개</translation>
    </message>
</context>
<context>
    <name>VocabSizeSlider</name>
    <message>
        <source>Cut the trained model to its first k tokens (PageUp/PageDown, Home/End)</source>
        <translation>학습된 모델을 처음 k개 토큰으로 자릅니다 (PageUp/PageDown, Home/End)</translation>
    </message>
    <message>
        <source>Full</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>Back to the full trained vocabulary</source>
        <translation>학습된 전체 어휘로 돌아갑니다</translation>
    </message>
    <message>
        <source>train or open a model to slide its vocabulary</source>
        <translation>모델을 학습하거나 열면 어휘 크기를 조절할 수 있습니다</translation>
    </message>
    <message>
        <source>stepping: {0:,} tokens so far</source>
        <translation>한 단계씩 진행 중: 지금까지 {0:,}개 토큰</translation>
    </message>
    <message>
        <source>{0:,} tokens (this model cannot be cut)</source>
        <translation>토큰 {0:,}개 (이 모델은 자를 수 없습니다)</translation>
    </message>
    <message>
        <source>{0:,} … {1:,}</source>
        <translation>{0:,} … {1:,}</translation>
    </message>
</context>
<context>
    <name>VocabularyPanel</name>
    <message>
        <source>Search tokens: text, ##, ▁, ␣, or an id</source>
        <translation>토큰 검색: 텍스트, ##, ▁, ␣ 또는 ID</translation>
    </message>
    <message>
        <source>Only these</source>
        <translation>이것만</translation>
    </message>
    <message>
        <source>List only the tokens of the chosen hygiene list</source>
        <translation>고른 어휘 점검 목록의 토큰만 보여 줍니다</translation>
    </message>
    <message>
        <source>Select a token to see how it was built.</source>
        <translation>토큰을 고르면 어떻게 만들어졌는지 보여 줍니다.</translation>
    </message>
    <message>
        <source>token</source>
        <translation>토큰</translation>
    </message>
    <message>
        <source>merge</source>
        <translation>병합</translation>
    </message>
    <message>
        <source>⚠ {0}</source>
        <translation>⚠ {0}</translation>
    </message>
    <message>
        <source>checking the vocabulary…</source>
        <translation>어휘를 점검하는 중…</translation>
    </message>
    <message>
        <source>no tokenizer yet</source>
        <translation>아직 토크나이저 없음</translation>
    </message>
    <message>
        <source>needs a merge model</source>
        <translation>병합 모델이 필요합니다</translation>
    </message>
    <message>
        <source>needs a corpus</source>
        <translation>말뭉치가 필요합니다</translation>
    </message>
    <message>
        <source>{0:,} of {1:,} tokens tinted</source>
        <translation>토큰 {1:,}개 중 {0:,}개 표시</translation>
    </message>
    <message>
        <source>{0:,} of {1:,} tokens</source>
        <translation>토큰 {1:,}개 중 {0:,}개</translation>
    </message>
    <message>
        <source>{0:,} tokens</source>
        <translation>토큰 {0:,}개</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: a Unigram piece (log-probability {1:.3f}). Unigram keeps the pieces that best explain the corpus; no piece is built from others by merges.</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;: Unigram 조각 (로그 확률 {1:.3f}). Unigram은 말뭉치를 가장 잘 설명하는 조각을 남깁니다. 어떤 조각도 다른 조각을 병합해 만들지 않습니다.</translation>
    </message>
    <message>
        <source>this WordPiece vocabulary carries no merges (train it here to see them)</source>
        <translation>이 WordPiece 어휘에는 병합 기록이 없습니다 (여기서 학습하면 보입니다)</translation>
    </message>
    <message>
        <source>&lt;b&gt;{0}&lt;/b&gt;: {1}</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;: {1}</translation>
    </message>
    <message>
        <source>How &lt;b&gt;{0}&lt;/b&gt; was built, merge by merge (numbers: merge step)</source>
        <translation>&lt;b&gt;{0}&lt;/b&gt;이(가) 만들어진 과정, 병합 순서대로 (숫자: 병합 단계)</translation>
    </message>
</context>
<context>
    <name>WhyView</name>
    <message>
        <source>Put the cursor in a word to see why it was cut that way.</source>
        <translation>단어에 커서를 두면 왜 그렇게 잘렸는지 보여 줍니다.</translation>
    </message>
    <message>
        <source>… (+{0:,} more)</source>
        <translation>… (+{0:,}개 더)</translation>
    </message>
    <message>
        <source>Why &lt;span style=&apos;background:#EEF2F7&apos;&gt;&amp;nbsp;{0}&amp;nbsp;&lt;/span&gt; → {1}</source>
        <translation>&lt;span style=&apos;background:#EEF2F7&apos;&gt;&amp;nbsp;{0}&amp;nbsp;&lt;/span&gt; → {1}인 이유</translation>
    </message>
    <message>
        <source>Why {0} was cut into {1} pieces</source>
        <translation>{0}이(가) {1}개 조각으로 나뉜 이유</translation>
    </message>
    <message>
        <source>{0} is one character to a reader (a grapheme cluster), but the pre-tokenizer split it into {1} pieces before the model saw it; each piece is tokenized on its own:</source>
        <translation>{0}은(는) 읽는 사람에게 한 글자(자소 클러스터)이지만, 모델이 보기 전에 사전 토큰화기가 {1}개 조각으로 나눴습니다. 각 조각은 따로 토큰화됩니다:</translation>
    </message>
    <message>
        <source>{0} is {2} characters to a reader (grapheme clusters), but the pre-tokenizer split them into {1} pieces before the model saw them; each piece is tokenized on its own:</source>
        <translation>{0}은(는) 읽는 사람에게 {2}글자(자소 클러스터)이지만, 모델이 보기 전에 사전 토큰화기가 {1}개 조각으로 나눴습니다. 각 조각은 따로 토큰화됩니다:</translation>
    </message>
</context>
</TS>
