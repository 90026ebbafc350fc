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

(defun memo-test-wait-reading-events (predicate seconds)
  "Like `memo-test-wait', but reading events as an interactive Emacs's command loop does:
batch Emacs delivers file notifications (which eglot's watches are) only to `read-event'."
  (let ((deadline (+ (float-time) seconds))
        value)
    (while (and (not (setq value (funcall predicate))) (< (float-time) deadline))
      (read-event nil nil 0.05))  ; not a wait: the poll interval; an event ends it early
    value))

(defun memo-scenario-workspace-after-a-change-on-disk ()
  "References on #1, then a file written on disk (eglot reports it through the watch the
server registered), then references again once eglot has sent the change."
  (with-current-buffer (memo-test-open (memo-test-file "note.md"))
    (memo-test-search "#1" 1)
    (memo-test-record "before" (memo-test-references))
    (let ((events (with-current-buffer (jsonrpc-events-buffer (eglot-current-server)) (point-max))))
      (write-region "later: #1\n" nil (memo-test-file "later.txt") nil 'silent)
      (memo-test-record
       "reported"
       (if (memo-test-wait-reading-events
            (lambda ()
              (with-current-buffer (jsonrpc-events-buffer (eglot-current-server))
                (save-excursion
                  (goto-char events)
                  (search-forward "workspace/didChangeWatchedFiles" nil t))))
            10)
           t :json-false)))
    (memo-test-record "after" (memo-test-references))))
