import { describe, expect, test } from "bun:test";
import { splitCommands } from "../../src/permissions/index.ts";

describe("splitCommands", () => {
  const cases: [string, string[][] | undefined][] = [
    ["git  push --force", [["git", "push", "--force"]]],
    ["echo git push", [["echo", "git", "push"]]],
    ["echo hi; git push origin && make || true", [["echo", "hi"], ["git", "push", "origin"], ["make"], ["true"]]],
    ["ls | grep x & wait", [["ls"], ["grep", "x"], ["wait"]]],
    ["FOO=1 BAR='a b' git push", [["git", "push"]]],
    ["git commit -m FOO=1", [["git", "commit", "-m", "FOO=1"]]],
    ["'git' \"push\" g\\it", [["git", "push", "git"]]],
    [
      'echo "a $(rm -rf /) b"',
      [
        ["rm", "-rf", "/"],
        ["echo", "a $(rm -rf /) b"],
      ],
    ],
    ["echo `whoami`", [["whoami"], ["echo", "`whoami`"]]],
    ["make 2>&1 >build.log < in.txt", [["make"]]],
    ["cat > out.txt file", [["cat", "file"]]],
    ["x &>log y", [["x", "y"]]],
    [
      "(cd sub && rm -f a)",
      [
        ["cd", "sub"],
        ["rm", "-f", "a"],
      ],
    ],
    ["echo a # rm -rf /", [["echo", "a"]]],
    ["echo line\\\ncontinued", [["echo", "linecontinued"]]],
    ["sh -c 'rm -f a'", [["sh", "-c", "rm -f a"]]],
    ["echo 'unclosed", undefined],
    ['echo "unclosed', undefined],
    ["echo $(unclosed", undefined],
    ["   ", []],
  ];
  for (const [line, expected] of cases) {
    test(JSON.stringify(line), () => expect(splitCommands(line)).toEqual(expected));
  }
});
