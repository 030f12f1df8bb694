"""``noughts play`` in another language: ``--lang zh``, or the environment's LANG, as a
person at a Chinese terminal sets it; English without either."""

from __future__ import annotations

from pathlib import Path

import pexpect

from terminal.driving import COLUMNS, LINES, NOUGHTS, terminal_env


def test_the_game_speaks_chinese_with_lang_zh(spawn) -> None:
    child = spawn("play", "classic", "--level", "easy", "--seed", "1", "--lang", "zh")
    child.expect("你执 X，电脑执 O，难度 easy。X 先走。")
    child.expect(r"轮到你走（X）：")
    child.sendline("help")
    child.expect("按 Ctrl-C 或 Ctrl-D 也会结束对局并保存棋谱。")
    child.sendline("5")
    child.expect(r"电脑（O）走 \d —— ")
    child.sendline("undo")
    child.expect("已悔棋：")
    child.sendline("quit")
    child.expect(pexpect.EOF)


def test_lang_in_the_environment_chooses_the_language(tmp_path: Path) -> None:
    prompts = {"zh_CN.UTF-8": "轮到你走（X）：", "de_DE.UTF-8": r"dein Zug \(X\): "}
    prompts["ko_KR.UTF-8"] = r"your move \(X\): "  # not offered: English
    for lang, prompt in prompts.items():
        child = pexpect.spawn(
            NOUGHTS,
            ["play", "classic", "--level", "easy", "--seed", "1"],
            cwd=str(tmp_path),
            env={**terminal_env(), "LANG": lang},
            encoding="utf-8",
            timeout=60,
            dimensions=(LINES, COLUMNS),
        )
        child.expect(prompt)
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
