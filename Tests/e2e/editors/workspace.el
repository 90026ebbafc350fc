;;; workspace.el --- the workspace scenarios for Emacs + eglot  -*- lexical-binding: t -*-
;; References that find the closed files of the project eglot names as its workspace folder
;; (Tests/e2e/test_editor_workspace.py).  Loaded after harness.el and scenarios.el.

(defun memo-test-references ()
  "M-x xref-find-references at point, as a user runs it, then the *xref* buffer's text (nil
when there is none)."
  (let ((xref-prompt-for-identifier nil))
    (when (get-buffer "*xref*") (kill-buffer "*xref*"))
    (call-interactively #'xref-find-references)
    (let ((buffer (memo-test-wait (lambda () (get-buffer "*xref*")) 10)))
      (and buffer (memo-test-buffer-text buffer)))))

(defun memo-scenario-workspace-from-a-note ()
  (with-current-buffer (memo-test-open (memo-test-file "note.md"))
    (memo-test-search "#1" 1)
    (memo-test-record "references" (memo-test-references))))

(defun memo-scenario-workspace-from-a-memos-file ()
  (with-current-buffer (memo-test-open (memo-test-file "note.md"))
    (memo-test-search "#1" 1)
    (call-interactively #'xref-find-definitions))
  (set-buffer (window-buffer (selected-window)))
  (memo-test-record "file" (or buffer-file-name nil))
  (unless (memo-test-wait (lambda () eglot--managed-mode) 10)
    (error "the memo's file is not managed by eglot"))
  (goto-char (point-min))
  (memo-test-record "references" (memo-test-references)))
