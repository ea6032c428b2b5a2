export function ResetPasswordPage() {
  return <h1 className="text-2xl font-bold">Restablecer contraseña</h1>;
}
