// Sign up and log in: each mistake is shown next to the field it concerns.

import { h } from "../dom.js";
import { online } from "../api.js";
import { t } from "../i18n.js";

export function accountForm(root, kind, { refreshAccount, navigate, toast }, next) {
  const signUp = kind === "signup";
  const nameError = h("span", { class: "field-error", id: "name-error", role: "alert" });
  const passwordError = h("span", { class: "field-error", id: "password-error", role: "alert" });
  const formError = h("p", { class: "field-error", id: "form-error", role: "alert" });
  const name = h("input", { type: "text", name: "name", id: "name", autocomplete: "username", required: true, maxlength: 40, "aria-describedby": "name-error" });
  const password = h("input", { type: "password", name: "password", id: "password", autocomplete: signUp ? "new-password" : "current-password", required: true, "aria-describedby": "password-error" });
  const submit = h("button", { class: "button primary", type: "submit", id: "submit" }, signUp ? t("Sign up") : t("Log in"));

  async function send(event) {
    event.preventDefault();
    for (const box of [nameError, passwordError, formError]) box.textContent = "";
    submit.disabled = true;
    try {
      await (signUp ? online.signUp(name.value, password.value) : online.logIn(name.value, password.value));
      await refreshAccount();
      toast(signUp ? t("Welcome!") : t("Logged in"));
      navigate(next ? `#${next}` : "#/lobby");
    } catch (e) {
      const box = e.field === "name" ? nameError : e.field === "password" ? passwordError : formError;
      box.textContent = e.message;
      (e.field === "password" ? password : name).focus();
    } finally {
      submit.disabled = false;
    }
  }

  const form = h(
    "form",
    { class: "form panel", onsubmit: send, novalidate: true },
    h("h1", {}, signUp ? t("Sign up") : t("Log in")),
    h("label", { for: "name" }, t("Name"), name, nameError),
    h("label", { for: "password" }, t("Password"), password, passwordError),
    signUp ? h("small", { class: "muted" }, t("3-20 letters, digits, - or _; a password of 8 characters or more.")) : null,
    formError,
    h("div", { class: "row" }, submit, h("a", { class: "button subtle", href: signUp ? "#/login" : "#/signup" }, signUp ? t("I have an account") : t("Create an account"))),
  );
  root.replaceChildren(h("section", { class: "page" }, form));
  name.focus();
}
