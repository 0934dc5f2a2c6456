//! Hostile scripts through the binary: each must end with a clear error and exit 1, quickly,
//! without a panic, a hang or running out of memory.
use crate::common::*;
use std::time::{Duration, Instant};

/// Run a script file; assert exit 1 within `within`, no panic; return standard error.
fn stopped(script: &str, within: Duration) -> String {
    let f = temp_file(script, ".rhai");
    let t = Instant::now();
    let err = fails(&["run", path(&f)]);
    let took = t.elapsed();
    // A generous bound for a loaded test machine; the limits themselves stop in well under a second.
    assert!(took < within, "took {took:?}: {script}\n{err}");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(path(&f)),
        "the error names the script: {err}"
    );
    err
}

const QUICK: Duration = Duration::from_secs(5);

#[test]
fn an_endless_loop_hits_the_operation_limit() {
    let err = stopped("let i = 0;\nwhile true { i += 1; }\n", QUICK);
    assert!(
        err.contains(":2:") && err.contains("operation limit"),
        "{err}"
    );
}

#[test]
fn an_empty_endless_loop_stops_too() {
    let err = stopped("loop { }", QUICK);
    assert!(err.contains("operation limit"), "{err}");
}

#[test]
fn endless_recursion_hits_the_call_limit() {
    let err = stopped("fn down(n) { down(n + 1) }\ndown(0)\n", QUICK);
    assert!(err.contains(":2:1:") && err.contains("call limit"), "{err}");
}

#[test]
fn a_closure_calling_itself_hits_the_call_limit() {
    let err = stopped("let f = |x| x.call(x);\nf.call(f);\n", QUICK);
    assert!(err.contains("call limit"), "{err}");
}

#[test]
fn string_doubling_hits_the_string_limit() {
    let err = stopped("let s = \"ab\";\nloop { s += s; }\n", QUICK);
    assert!(
        err.contains(":2:") && err.contains("Length of string is over the sandbox limit"),
        "{err}"
    );
}

#[test]
fn string_doubling_by_interpolation_hits_the_string_limit() {
    let err = stopped("let s = \"ab\";\nloop { s = `${s}${s}`; }\n", QUICK);
    assert!(err.contains("Length of string"), "{err}");
}

#[test]
fn array_doubling_hits_the_array_limit() {
    let err = stopped("let a = [1];\nloop { a += a; }\n", QUICK);
    assert!(err.contains("Size of array"), "{err}");
}

#[test]
fn array_growth_by_push_hits_the_array_limit() {
    let err = stopped(
        "let a = [];\nloop { a.push([1, 2, 3, 4, 5, 6, 7, 8]); }\n",
        QUICK,
    );
    assert!(err.contains("Size of array"), "{err}");
}

#[test]
fn nested_array_growth_hits_the_array_limit() {
    let err = stopped("let a = [1];\nfor i in 0..100 { a = [a, a, a]; }\n", QUICK);
    assert!(err.contains("Size of array"), "{err}");
}

#[test]
fn a_huge_padded_array_or_string_is_refused() {
    assert!(stopped("let a = [];\na.pad(100000000, 1);\n", QUICK).contains("Size of array"));
    assert!(stopped("let s = \"x\".pad(100000000, \"y\");\n", QUICK).contains("Length of string"));
    assert!(stopped("let b = blob(1000000000);\n", QUICK).contains("Size of array/BLOB"));
}

#[test]
fn map_growth_stops() {
    // Growth through a map literal in a function argument is caught by the map limit...
    let err = stopped(
        "let m = #{};\nfor i in 0..30000 { m[`k${i}`] = i; }\nm.len()\n",
        QUICK,
    );
    assert!(err.contains("Size of object map"), "{err}");
    // ...and endless insertion by the operation limit (bounding its memory too).
    let err = stopped(
        "let m = #{};\nlet i = 0;\nloop { m[`k${i}`] = [i, i, i, i]; i += 1; }\n",
        QUICK,
    );
    assert!(
        err.contains("operation limit") || err.contains("Size of object map"),
        "{err}"
    );
}

#[test]
fn costly_operations_in_an_endless_loop_run_out_of_time() {
    let err = stopped(
        "let s = \"x\";\ns.pad(99000, \"y\");\nloop { s.index_of(\"z\"); }\n",
        QUICK,
    );
    assert!(err.contains("ran out of time"), "{err}");
}

#[test]
fn import_is_not_available() {
    let err = stopped("import \"os\" as os;\n", QUICK);
    assert!(
        err.contains(":1:1:") && err.contains("modules are not available"),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_refused_at_compile_time() {
    let parens = format!("let x = {}1{};\n", "(".repeat(5000), ")".repeat(5000));
    assert!(stopped(&parens, QUICK).contains("maximum complexity"));
    let arrays = format!("let x = {}{};\n", "[".repeat(3000), "]".repeat(3000));
    assert!(stopped(&arrays, QUICK).contains("maximum complexity"));
    let blocks = format!("{}{}\n", "{ ".repeat(3000), " }".repeat(3000));
    assert!(stopped(&blocks, QUICK).contains("maximum complexity"));
}

#[test]
fn eval_of_a_string_is_sandboxed_the_same() {
    let err = stopped("eval(\"loop { }\");\n", QUICK);
    assert!(err.contains("operation limit"), "{err}");
}

#[test]
fn an_enormous_dice_expression_is_refused_not_computed() {
    let err = stopped("dice(\"1000D1000\")\n", QUICK);
    assert!(err.contains("too large to enumerate"), "{err}");
}

#[test]
fn without_allow_write_a_script_cannot_save() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("house.rules");
    let script = format!(
        "let r = rules(\"startrek\");\nr.save(\"{}\");\n",
        out.display()
    );
    let err = stopped(&script, QUICK);
    assert!(
        err.contains(":2:3:") && err.contains("--allow-write"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn a_ruleset_may_tighten_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("tight.rules");
    std::fs::write(
        &rules,
        "extends startrek\nscript {\n  limits { max_operations = 1000 }\n}\n",
    )
    .unwrap();
    let f = temp_file(
        "let i = 0;\nwhile i < 5000 { i += 1; }\nprint(i);\n",
        ".rhai",
    );
    // The default limits let this run...
    assert_eq!(ok(&["run", path(&f)]).trim(), "5000");
    // ...the ruleset's do not.
    let err = fails(&["run", path(&f), "--rules", rules.to_str().unwrap()]);
    assert!(err.contains("operation limit"), "{err}");
}

#[test]
fn a_ruleset_may_not_loosen_the_limits() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("loose.rules");
    std::fs::write(
        &rules,
        "extends startrek\nscript {\n  limits { max_operations = 999999999999 }\n}\n",
    )
    .unwrap();
    let err = fails(&["rules", "check", rules.to_str().unwrap()]);
    assert!(
        err.contains("loose.rules:3:29") && err.contains("may only tighten"),
        "{err}"
    );
}

#[test]
fn scripts_read_only_ruleset_and_record_files() {
    let secret = temp_file("ssh-rsa AAAA very secret\n", ".key");
    for call in [
        format!("rules(\"{}\")", path(&secret)),
        format!("rules(\"startrek\").extend(\"{}\")", path(&secret)),
    ] {
        let err = stopped(&format!("{call};\n"), QUICK);
        assert!(
            err.contains("may read only ruleset and record files"),
            "{err}"
        );
        assert!(
            !err.contains("very secret"),
            "the file's text must not leak: {err}"
        );
    }
    // A name that is neither a built-in nor a file still gets its suggestion.
    assert!(stopped("rules(\"startrak\");\n", QUICK).contains("startrek"));
}

#[test]
fn the_person_running_a_script_raises_its_time_limit() {
    // 2.5 s of waiting is over the default 2 s; --max-seconds 10 lets it finish.
    let f = temp_file("sleep(2.5);\nprint(\"done\");\n", ".rhai");
    let err = fails(&["run", path(&f)]);
    assert!(
        err.contains("the script ran out of time (limit 2 s of CPU time")
            && err.contains("--max-seconds raises it"),
        "{err}"
    );
    assert_eq!(ok(&["run", "--max-seconds", "10", path(&f)]), "done\n");
}

#[test]
fn the_person_running_a_script_lowers_its_time_limit() {
    let f = temp_file("sleep(0.5);\nprint(\"done\");\n", ".rhai");
    assert_eq!(ok(&["run", path(&f)]), "done\n");
    let err = fails(&["run", "--max-seconds", "0.2", path(&f)]);
    assert!(err.contains("(limit 0.2 s of CPU time"), "{err}");
}

#[test]
fn limits_out_of_range_are_refused_by_name() {
    let f = temp_file("print(1);\n", ".rhai");
    for (flag, value) in [
        ("--max-seconds", "0"),
        ("--max-seconds", "3601"),
        ("--max-seconds", "soon"),
        ("--max-memory", "0"),
        ("--max-memory", "65537"),
    ] {
        let out = run(&["run", flag, value, path(&f)]);
        assert_eq!(out.status.code(), Some(2), "{flag} {value}");
        let err = stderr(&out);
        assert!(
            err.contains(flag) && err.contains("at most"),
            "{flag} {value}: {err}"
        );
    }
}
