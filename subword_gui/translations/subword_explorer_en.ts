<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CompareColumn</name>
    <message numerus="yes">
        <source>&lt;b&gt;{0:,}&lt;/b&gt; token(s)</source>
        <translation>
            <numerusform>&lt;b&gt;{0:,}&lt;/b&gt; token</numerusform>
            <numerusform>&lt;b&gt;{0:,}&lt;/b&gt; tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b style=&apos;color:{1}&apos;&gt;{0:,}&lt;/b&gt; boundary(ies) not shared</source>
        <translation>
            <numerusform>&lt;b style=&apos;color:{1}&apos;&gt;{0:,}&lt;/b&gt; boundary not shared</numerusform>
            <numerusform>&lt;b style=&apos;color:{1}&apos;&gt;{0:,}&lt;/b&gt; boundaries not shared</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0:,} differing token(s)</source>
        <translation>
            <numerusform>{0:,} differing token</numerusform>
            <numerusform>{0:,} differing tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MergeCounts</name>
    <message numerus="yes">
        <source>{0} merge(s) applied, lowest rank first (rank = the order training learned them).</source>
        <translation>
            <numerusform>{0} merge applied, lowest rank first (rank = the order training learned them).</numerusform>
            <numerusform>{0} merges applied, lowest rank first (rank = the order training learned them).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} merge(s) applied, each time the pair whose merged piece scores highest (# = the place of its score among the model&apos;s scores, best first).</source>
        <translation>
            <numerusform>{0} merge applied, each time the pair whose merged piece scores highest (# = the place of its score among the model&apos;s scores, best first).</numerusform>
            <numerusform>{0} merges applied, each time the pair whose merged piece scores highest (# = the place of its score among the model&apos;s scores, best first).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} merge(s) applied, starting from single bytes: each time the adjacent pair whose joined bytes have the lowest rank in the rank file (rank = the joined token&apos;s id).</source>
        <translation>
            <numerusform>{0} merge applied, starting from single bytes: each time the adjacent pair whose joined bytes have the lowest rank in the rank file (rank = the joined token&apos;s id).</numerusform>
            <numerusform>{0} merges applied, starting from single bytes: each time the adjacent pair whose joined bytes have the lowest rank in the rank file (rank = the joined token&apos;s id).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{0} spans a space (a superword): built by {1} merge(s), in the order learned</source>
        <translation>
            <numerusform>{0} spans a space (a superword): built by {1} merge, in the order learned</numerusform>
            <numerusform>{0} spans a space (a superword): built by {1} merges, in the order learned</numerusform>
        </translation>
    </message>
</context>
</TS>
